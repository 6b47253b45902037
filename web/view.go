package web

import (
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// head is the frame every page shares.
type head struct {
	Title  string
	CSS    string
	Home   string
	Search string // the search form's action; "" in an export (no search)
	Query  string
}

// item is one link to a page, with what it is.
type item struct {
	Href     string
	Text     string // the page's short name
	Sub      string // its signature or title, when that says more
	Kind     string // symbol kind or page kind
	Where    string // path:line
	LineHref string // the line in the file's source
	Group    string // a heading the item is listed under (module outlines)
	Line     int
	// Conf and Use are a reference's confidence ("typed", "import",
	// "scope", "name") and how it is used ("call", "type", "selector").
	Conf, Use string
}

// edgeGroup is a page's neighbours of one edge type and direction.
type edgeGroup struct {
	Label  string
	Rel    string // edge type and direction, e.g. "references in"
	Items  []item
	More   int // neighbours known but not listed
	Total  int
	Anchor string // the section's id on the page
	Loose  int    // references matched by name only, not listed
}

// rankOf is drawRank of page id (memories and unknown pages last).
func rankOf(g *graph.Graph, id string) int {
	if i, ok := g.Lookup(id); ok {
		return drawRank(&g.Pages[i])
	}
	return 5
}

// pageView is everything a module, file, symbol, doc or memory page shows.
type pageView struct {
	head
	ID, Kind, SymKind, Path string
	Name                    string
	Signature               string
	Line, EndLine           int
	Lang, Indexing          string
	Crumbs                  []item
	Doc                     string
	Source                  *sourceView
	Markdown                template.HTML // a doc section, rendered
	InFile                  string        // symbol and doc pages: the line in the file's page
	Outline                 []item
	OutlineNote             string // which symbols a long outline lists
	Groups                  []edgeGroup
	Notes                   []wiki.NoteView
	StaleNotes              bool
	Graph                   template.HTML
	GraphHref               string
	Stale                   bool
	Category, Created       string
	Standing                string
	// Forms: the actions and the token; empty in an export (read-only).
	NoteAction, RememberAction, CSRF string
	LinkID                           string // what a memory written here is about
}

// maxListed bounds the neighbours listed per edge type and direction, and
// maxOutline the symbols a module page lists.
const (
	maxListed      = 60
	maxOutline     = 300
	maxModuleItems = 500
)

// errNotFound marks a page that does not exist (404).
var errNotFound = errors.New("not found")

// buildPage assembles page id of generation g (with the notes and
// memories a), its source window from line from (file pages), links made
// by l, from the page's neighbourhood (pageGraph), or from whole when set.
func (s *Server) buildPage(g *wiki.Gen, a *annotate.Annotations, id string, from int, l links, whole *graph.Graph) (*pageView, error) {
	p, err := wiki.LoadPage(g.Snap, a, id, wiki.PageOptions{Clip: true})
	if err != nil {
		return nil, err
	}
	gr := whole
	if gr == nil {
		also := holders(p.Kind, p.Path)
		if p.Kind == "doc" && p.Source != "" && isMarkdown(p) {
			also = append(also, markdownTargets(p.Path, p.Source)...) // what its links may name
		}
		if gr, err = g.Snap.Neighbourhood([]string{p.ID}, also...); err != nil {
			return nil, err
		}
	}
	pl := wiki.PlaceAnnotations(g.Snap, a)
	v := &pageView{head: s.head(l, p.ID), ID: p.ID, Kind: p.Kind, SymKind: p.SymKind, Path: p.Path, Line: p.Line, EndLine: p.EndLine,
		Lang: p.Lang, Indexing: p.Indexing, Doc: p.Doc, Notes: p.Notes, Category: p.Category, Created: p.Created, Standing: p.Standing}
	v.Name, v.Signature = pageName(gr, p), p.Title
	if v.Signature == v.Name || p.Kind == "file" || p.Kind == "module" {
		v.Signature = ""
	}
	v.head.Title = v.Name + " · " + p.Kind
	for _, n := range p.Notes {
		v.StaleNotes = v.StaleNotes || n.State == "stale"
	}
	v.Crumbs = crumbs(gr, p, l)
	root := s.live.Root(g)
	switch p.Kind {
	case "file":
		v.Stale = g.FileChanged(root, p.Path)
		v.Source = fileSource(root, p, from, l)
		v.Outline, v.OutlineNote = fileOutline(gr, pl, p.ID, v.Source, l)
	case "symbol", "doc":
		v.Stale = p.Stale
		v.InFile = l.source(graph.FileID(p.Path), p.Line)
		if p.Source != "" {
			lines := strings.Split(strings.TrimSuffix(p.Source, "\n"), "\n")
			sv := &sourceView{HTML: highlight(p.Path, p.Lang, lines, p.Line), From: p.Line, To: p.Line + len(lines) - 1}
			if p.SourceTo > 0 && p.EndLine > p.SourceTo {
				sv.Next = l.source(graph.FileID(p.Path), p.SourceTo+1)
				sv.CutAt = fmt.Sprintf("cut at line %d of %d–%d", p.SourceTo, p.Line, p.EndLine)
			}
			sv.Prose = prose(p.Path, p.Lang)
			v.Source = sv
			if p.Kind == "doc" && isMarkdown(p) {
				v.Markdown = renderMarkdown(gr, p.Path, p.Source, l)
				sv.HTML = "" // the section is shown rendered; its file's page has the source
			}
			if docShown(p.Doc, p.Source) {
				v.Doc = ""
			}
		}
	case "module":
		var api []item
		v.Outline, api, v.OutlineNote = moduleOutline(gr, pl, p, l)
		v.Outline = append(v.Outline, api...)
	}
	v.Groups = groups(gr, pl, p, l)
	v.Graph = drawGraph(gr, pl, p.ID, l, false)
	if v.Graph != "" {
		v.GraphHref = l.graph(p.ID)
	}
	if !l.export {
		v.NoteAction, v.RememberAction, v.CSRF, v.LinkID = "/note", "/remember", s.csrf, p.ID
	}
	return v, nil
}

// fileSource reads and highlights the window of file page p from line from.
func fileSource(root string, p *wiki.Page, from int, l links) *sourceView {
	from = windowStart(from)
	lines, total, cut, err := readWindow(root, p.Path, from)
	sv := &sourceView{From: from, Total: total, Cut: cut, Prose: prose(p.Path, p.Lang)}
	switch {
	case errors.Is(err, errBinary):
		sv.Missing = "a binary file: no source shown"
	case err != nil:
		sv.Missing = fmt.Sprintf("the file cannot be read now (%v); it may have been removed since the build", err)
	case len(lines) == 0 && total > 0:
		sv.Missing = fmt.Sprintf("the file has %d lines; line %d is past its end", total, from)
		sv.Prev = l.window(p.ID, 1)
	case len(lines) == 0:
		sv.Missing = "an empty file"
	default:
		sv.HTML = highlight(p.Path, p.Lang, lines, from)
		sv.To = from + len(lines) - 1
		if from > 1 {
			sv.Prev = l.window(p.ID, from-windowLines)
		}
		if sv.To < total {
			sv.Next = l.window(p.ID, sv.To+1)
		}
	}
	return sv
}

// docShown reports a doc that the source shows already (a docstring, a
// doc section's text).
func docShown(doc, src string) bool {
	for l := range strings.Lines(doc) {
		if l = strings.TrimSpace(l); l != "" {
			return strings.Contains(src, l)
		}
	}
	return false
}

// isMarkdown reports a page of a Markdown file.
func isMarkdown(p *wiki.Page) bool {
	return strings.EqualFold(p.Lang, "markdown") || strings.HasSuffix(p.Path, ".md")
}

// holders returns the IDs of the pages that hold a page of kind at p (a
// module's directory, or a file): the module of each directory from p's
// up to the root, and a symbol's or section's file. A page is drawn from
// its neighbourhood and these (graph.Snapshot.Neighbourhood), which its
// crumbs and the top row of its picture name: at 100k files the whole
// graph is 1.7 GB and 7 s to read, the neighbourhood a few segments.
func holders(kind, p string) []string {
	if p == "" {
		return nil
	}
	var out []string
	dir := p
	switch kind {
	case "module":
	case "symbol", "doc":
		out = append(out, graph.FileID(p))
		fallthrough
	default:
		dir = path.Dir(p)
	}
	for {
		out = append(out, graph.ModuleID(dir))
		if dir == "." || dir == "/" || dir == "" {
			return out
		}
		dir = path.Dir(dir)
	}
}

// pageGraph returns the graph the picture of page id is drawn from: its
// neighbourhood and its holders.
func pageGraph(snap *graph.Snapshot, id string) (*graph.Graph, error) {
	kind, p, _, err := graph.ParseID(id)
	if err != nil || kind == graph.KindMemory {
		return snap.Neighbourhood([]string{id})
	}
	g, err := snap.Neighbourhood([]string{id}, holders(kind.String(), p)...)
	if err != nil {
		return nil, err
	}
	// A path holding "#" is cut short by ParseID: the page says where it is.
	if i, ok := g.Lookup(id); ok && g.Pages[i].Path != p {
		return snap.Neighbourhood([]string{id}, holders(kind.String(), g.Pages[i].Path)...)
	}
	return g, nil
}

// pageName is a page's short name: a symbol's qualified name, a file's or
// module's path, a doc section's heading, a memory's title.
func pageName(gr *graph.Graph, p *wiki.Page) string {
	if i, ok := gr.Lookup(p.ID); ok {
		pg := &gr.Pages[i]
		switch pg.Kind {
		case graph.KindSymbol:
			if pg.Qualified != "" {
				return pg.Qualified
			}
		case graph.KindDoc:
			return pg.Title
		}
		if pg.Path != "" {
			return pg.Path
		}
	}
	if p.Title != "" {
		return p.Title
	}
	return p.ID
}

// describe returns the link to page id with what it is (g and pl may be nil).
func describe(g *graph.Graph, pl *annotate.Placement, id string, l links) item {
	it := item{Href: l.page(id), Text: id}
	kind, _, frag, err := graph.ParseID(id)
	if err != nil {
		return it
	}
	if kind == graph.KindMemory {
		it.Kind = "memory"
		if pl != nil {
			if m, ok := pl.Memory(frag); ok {
				it.Text = m.Title
				it.Sub = clip(m.Text, 140)
			}
		}
		return it
	}
	if g == nil {
		return it
	}
	i, ok := g.Lookup(id)
	if !ok {
		return it
	}
	pg := &g.Pages[i]
	it.Kind = pg.Kind.String()
	switch pg.Kind {
	case graph.KindModule:
		it.Text = pg.Path
		if it.Text == "." {
			it.Text = "(root)"
		}
	case graph.KindFile:
		it.Text = pg.Path
	case graph.KindSymbol:
		it.Text, it.Kind = cmp.Or(pg.Qualified, pg.Name), cmp.Or(pg.SymKind, "symbol")
		if pg.Title != it.Text {
			it.Sub = clip(pg.Title, 140)
		}
	case graph.KindDoc:
		it.Text = pg.Title
	}
	if pg.Kind != graph.KindModule && pg.Kind != graph.KindFile && pg.Line > 0 {
		it.Where, it.Line = pg.Path+":"+strconv.Itoa(pg.Line), pg.Line
		it.LineHref = l.source(graph.FileID(pg.Path), pg.Line)
	}
	return it
}

// clip returns s on one line, cut to about n bytes.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + " …"
	}
	return s
}

// crumbs are the modules above a page, from the root down, and its file.
func crumbs(g *graph.Graph, p *wiki.Page, l links) []item {
	if p.Path == "" || p.Path == "." {
		return nil
	}
	dir := p.Path
	if p.Kind != "module" {
		dir = path.Dir(p.Path)
	}
	var out []item
	add := func(id, text string) {
		if _, ok := g.Lookup(id); ok {
			out = append(out, item{Href: l.page(id), Text: text})
		}
	}
	add(graph.ModuleID("."), "(root)")
	if dir != "." {
		parts := strings.Split(dir, "/")
		for i := range parts {
			if p.Kind == "module" && i == len(parts)-1 {
				break
			}
			add(graph.ModuleID(strings.Join(parts[:i+1], "/")), parts[i])
		}
	}
	if p.Kind == "symbol" || p.Kind == "doc" {
		add(graph.FileID(p.Path), path.Base(p.Path))
	}
	return out
}

// groupLabels name each edge type and direction for people.
var groupLabels = map[string]string{
	"contains out":   "Contains",
	"contains in":    "Contained in",
	"references out": "Uses",
	"references in":  "Callers and users",
	"imports out":    "Imports",
	"imports in":     "Imported by",
	"relates out":    "About",
	"relates in":     "Memories about it",
}

// groups lists p's neighbours by edge type and direction, as links.
func groups(g *graph.Graph, pl *annotate.Placement, p *wiki.Page, l links) []edgeGroup {
	var out []edgeGroup
	for _, t := range []string{"contains", "references", "imports", "relates"} {
		d, ok := p.Edges[t]
		if !ok {
			continue
		}
		for _, dir := range []string{"in", "out"} {
			ids, attrs, total, loose := d.Out, d.OutAttr, len(d.Out), d.LooseOut
			if dir == "in" {
				ids, attrs, total, loose = d.In, d.InAttr, max(d.InTotal, len(d.In)), d.LooseIn
			}
			if len(ids) == 0 {
				continue
			}
			if t == "contains" && dir == "out" && (p.Kind == "file" || p.Kind == "module") {
				continue // the outline and the listing show them
			}
			grp := edgeGroup{Label: groupLabels[t+" "+dir], Rel: t + " " + dir, Anchor: t + "-" + dir, Loose: loose}
			// Callables and types first, as the picture draws them; each
			// keeps its edge's attribute (how it is used, how sure).
			type edge struct {
				id   string
				attr graph.EdgeAttr
			}
			es := make([]edge, len(ids))
			for i, id := range ids {
				es[i].id = id
				if i < len(attrs) {
					es[i].attr = attrs[i]
				}
			}
			slices.SortStableFunc(es, func(a, b edge) int { return cmp.Compare(rankOf(g, a.id), rankOf(g, b.id)) })
			for _, e := range es[:min(len(es), maxListed)] {
				it := describe(g, pl, e.id, l)
				if t == "references" {
					it.Conf, it.Use = e.attr.Confidence().String(), strings.Join(e.attr.UseNames(), ", ")
				}
				grp.Items = append(grp.Items, it)
			}
			grp.Total = total
			grp.More = total - len(grp.Items)
			out = append(out, grp)
		}
	}
	return out
}

// maxFileOutline is the most symbols a file page lists whole; a file with
// more lists those of the source window shown (the page stays under
// 150 KB).
const maxFileOutline = 150

// fileOutline lists the symbols file id holds (from the graph: the page's
// edges stop at graph.MaxStoredEdges), all of them or those in the window
// src shows, each with a link to its line.
func fileOutline(g *graph.Graph, pl *annotate.Placement, id string, src *sourceView, l links) ([]item, string) {
	i, ok := g.Lookup(id)
	if !ok {
		return nil, ""
	}
	kids := g.Out(i, graph.Contains, false)
	all := len(kids) <= maxFileOutline || src == nil || src.To == 0
	var out []item
	for _, e := range kids {
		pg := &g.Pages[e.To]
		if !all && (pg.Line < src.From || pg.Line > src.To) {
			continue
		}
		it := describe(g, pl, pg.ID, l)
		if src != nil && pg.Line >= src.From && pg.Line <= src.To {
			it.LineHref = "#L" + strconv.Itoa(pg.Line) // on this page
		}
		out = append(out, it)
	}
	if all {
		return out, ""
	}
	return out, fmt.Sprintf("%d of %d, those of lines %d–%d; each window of the source lists its own", len(out), len(kids), src.From, src.To)
}

// moduleOutline lists a module's submodules and files (at most
// maxModuleItems, note says so), and its files' top-level symbols (at most
// maxOutline).
func moduleOutline(g *graph.Graph, pl *annotate.Placement, p *wiki.Page, l links) (listing, api []item, note string) {
	var mods, files, syms []item
	for _, id := range p.Edges["contains"].Out {
		it := describe(g, pl, id, l)
		switch it.Kind {
		case "module":
			it.Group = "Submodules"
			mods = append(mods, it)
		case "file":
			it.Group = "Files"
			files = append(files, it)
			if i, ok := g.Lookup(id); ok && len(syms) < maxOutline {
				for _, e := range g.Out(i, graph.Contains, false) {
					if len(syms) == maxOutline {
						break
					}
					s := describe(g, pl, g.Pages[e.To].ID, l)
					s.Group = "API: " + it.Text
					syms = append(syms, s)
				}
			}
		}
	}
	slices.SortStableFunc(mods, func(a, b item) int { return cmp.Compare(a.Text, b.Text) })
	note = ""
	if len(mods)+len(files) > maxModuleItems {
		note = fmt.Sprintf("%d of %d submodules and files listed", maxModuleItems, len(mods)+len(files))
	}
	return slices.Concat(mods, files)[:min(len(mods)+len(files), maxModuleItems)], syms, note
}
