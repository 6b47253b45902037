package wiki

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// MaxSourceLines bounds the source a page shows.
const MaxSourceLines = 120

// maxPageLineBytes bounds one source line and maxDocBytes a page's doc, so
// that no page answer nears MaxAnswerTokens.
const (
	maxPageLineBytes = 400
	maxDocBytes      = 8 << 10
)

// EdgeDirs are a page's neighbours of one edge type. For references,
// LooseOut and LooseIn count the name-only matches among several
// definitions (graph.ConfLoose) that Out and In leave out; `related
// --loose` lists them.
type EdgeDirs struct {
	Out      []string `json:"out"`
	In       []string `json:"in"`
	InTotal  int      `json:"in_total,omitempty"`
	LooseOut int      `json:"loose_out,omitempty"`
	LooseIn  int      `json:"loose_in,omitempty"`
	// OutAttr and InAttr are the attributes of Out's and In's edges, in
	// their order; looseOut and looseIn the loose neighbours.
	OutAttr, InAttr   []graph.EdgeAttr `json:"-"`
	looseOut, looseIn []string
}

// Page is the full view of one page, as `page --json` and wiki_page show it.
type Page struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line,omitempty"`
	SymKind string `json:"symbol_kind,omitempty"`
	Lang    string `json:"language,omitempty"`
	// Indexing says how a file or symbol page's definitions were found
	// when not by a grammar: "definitions found by declaration patterns"
	// (heuristic), or "text only" for a file no language claims.
	Indexing string `json:"indexing,omitempty"`
	Category string `json:"category,omitempty"`
	Created  string `json:"created,omitempty"`
	Doc      string `json:"doc,omitempty"`
	Source   string `json:"source,omitempty"`
	// SourceTo is the last line Source shows when it stops before EndLine
	// (at most MaxSourceLines are shown, cut at a blank line when one is
	// near); 0 when Source is whole.
	SourceTo int  `json:"source_to,omitempty"`
	Stale    bool `json:"stale,omitempty"`
	// Standing is a linked memory's state when not fresh ("possibly stale:
	// …", "moved from …", "orphan: …").
	Standing string              `json:"standing,omitempty"`
	Edges    map[string]EdgeDirs `json:"edges"`
	Notes    []NoteView          `json:"notes"`
}

// NoteView is one note as shown on a page. State is "fresh", "stale"
// (possibly stale: the code changed since it was written or confirmed) or
// "moved" (it followed a renamed or moved symbol, From); Stale says it in
// words, empty when fresh.
type NoteView struct {
	ID    string `json:"id"`
	Text  string `json:"text"`
	Time  string `json:"time"`
	State string `json:"state"`
	From  string `json:"from,omitempty"`
	Stale string `json:"stale,omitempty"`
}

// PlaceAnnotations places a's notes and linked memories (nil: nil) on
// snap's pages (annotate.Annotations.Place, reading the anchored pages
// alone; snap nil or unreadable: everything fresh).
func PlaceAnnotations(snap *graph.Snapshot, a *annotate.Annotations) *annotate.Placement {
	if a == nil {
		return nil
	}
	if snap == nil || !a.HasAnchors() {
		return a.Place(nil, time.Time{}) // nothing to read: a CLI query stays as fast as before
	}
	return a.Place(snap, snap.Info().Started)
}

// noteView renders a placed note.
func noteView(n annotate.PlacedNote) NoteView {
	return NoteView{ID: n.ID, Text: n.Text, Time: n.Time.Local().Format(time.RFC3339), State: n.State.String(), From: n.From,
		Stale: n.Describe(anchoredAt(n.Anchor, n.Time))}
}

// anchoredAt is when an anchor was taken: confirmed, else written.
func anchoredAt(an annotate.Anchor, written time.Time) time.Time {
	if an.Anchored.IsZero() {
		return written
	}
	return an.Anchored
}

// PageOptions bound a page view. The zero value shows everything stored.
type PageOptions struct {
	MaxEdges int // neighbours listed per edge type and direction; 0 = all stored
	Clip     bool
	// Base is the folder relative paths in the reference are taken from
	// first (repository-relative; "" = the root), as graph.ResolveRef says.
	Base string
}

// ResolveRef turns a page reference — a page ID, a repository path,
// PATH#NAME, PATH:LINE or a symbol name (graph.ResolveRef) — into a page
// ID. Without an index (snap nil) only IDs are accepted.
func ResolveRef(snap *graph.Snapshot, ref, base string) (string, error) {
	ref = strings.TrimSpace(ref)
	if snap == nil {
		_, _, _, err := graph.ParseID(ref)
		return ref, err
	}
	return snap.ResolveRef(ref, base)
}

// LoadPage reads the page ref names (ResolveRef) from snap (or, for memory
// pages, from a) with its edges, the memories linked to it, its notes and a
// bounded slice of its source. a may be nil. A missing page is an error
// that suggests near IDs.
func LoadPage(snap *graph.Snapshot, a *annotate.Annotations, ref string, opt PageOptions) (*Page, error) {
	id, err := ResolveRef(snap, ref, opt.Base)
	if err != nil {
		return nil, err
	}
	kind, _, frag, err := graph.ParseID(id)
	if err != nil {
		return nil, err
	}
	var p *Page
	if kind == graph.KindMemory {
		m, ok := annotate.PlacedMemory{}, false
		if r := PlaceAnnotations(snap, a); r != nil {
			m, ok = r.Memory(frag)
		}
		if !ok {
			return nil, noPage{fmt.Sprintf("no page %q; memory IDs come from wiki_query or wikitoolkit query --kind memory", id)}
		}
		p = &Page{ID: id, Kind: "memory", Title: m.Title, Category: m.Category, Created: m.Created.Local().Format(time.RFC3339),
			Doc: m.Text, Standing: m.Describe(anchoredAt(m.Anchor, m.Created)), Edges: map[string]EdgeDirs{}}
		if m.Link != "" {
			p.Edges["relates"] = EdgeDirs{Out: []string{m.ShownOn}, In: []string{}}
		}
	} else {
		if snap == nil {
			return nil, errors.New("no index")
		}
		rec, err := snap.Page(id)
		if errors.Is(err, graph.ErrNotFound) {
			hint := "IDs come from wiki_query (or 'wikitoolkit query')"
			if near := snap.PageIDs(nearPrefix(id), 5); len(near) > 0 {
				hint = "did you mean " + strings.Join(near, ", ") + "?"
			}
			if a != nil && len(a.Notes(id)) > 0 {
				hint += fmt.Sprintf(" (%d notes are kept for it in case it returns; 'wikitoolkit notes --orphans' lists them)", len(a.Notes(id)))
			}
			return nil, noPage{fmt.Sprintf("no page %q; %s", id, hint)}
		}
		if err != nil {
			return nil, err
		}
		p = &Page{ID: rec.ID, Kind: rec.Kind.String(), Title: rec.Title, Path: rec.Path, Line: rec.Line, EndLine: rec.EndLine,
			SymKind: rec.SymKind, Lang: rec.Lang, Indexing: graph.IndexingNote(rec.Lang), Doc: rec.Doc, Edges: map[string]EdgeDirs{}}
		if rec.Kind == graph.KindModule {
			p.Line = 0
		}
		for t := graph.Contains; t <= graph.Relates; t++ {
			if len(rec.Out[t]) == 0 && len(rec.In[t]) == 0 {
				continue
			}
			p.Edges[t.String()] = EdgeDirs{Out: nonNil(rec.Out[t]), In: nonNil(rec.In[t]), InTotal: rec.InTotal[t],
				OutAttr: rec.OutAttr[t], InAttr: rec.InAttr[t]}
		}
		if len(rec.LooseOut) > 0 || len(rec.LooseIn) > 0 {
			d := p.Edges[graph.References.String()]
			d.Out, d.In = nonNil(d.Out), nonNil(d.In)
			d.LooseOut, d.LooseIn = len(rec.LooseOut), rec.LooseInTotal
			d.looseOut, d.looseIn = rec.LooseOut, rec.LooseIn
			p.Edges[graph.References.String()] = d
		}
		if rec.Kind == graph.KindSymbol || rec.Kind == graph.KindDoc {
			p.Source, p.SourceTo, p.Stale = readSource(snap, rec.Path, rec.Line, rec.EndLine, opt.Clip)
		}
	}
	r := PlaceAnnotations(snap, a)
	if r != nil {
		if linked := r.LinkedFrom(id); len(linked) > 0 {
			d := p.Edges["relates"]
			d.Out = nonNil(d.Out)
			for _, m := range linked {
				d.In = append(d.In, m.ID())
			}
			d.InTotal = max(d.InTotal, len(d.In))
			p.Edges["relates"] = d
		}
	}
	p.Notes = []NoteView{}
	if r != nil {
		for _, n := range r.Notes(id) {
			p.Notes = append(p.Notes, noteView(n))
		}
	}
	if opt.MaxEdges > 0 {
		for t, d := range p.Edges {
			if d.InTotal < len(d.In) {
				d.InTotal = len(d.In)
			}
			if len(d.Out) > opt.MaxEdges {
				d.Out = d.Out[:opt.MaxEdges]
			}
			if len(d.In) > opt.MaxEdges {
				d.In = d.In[:opt.MaxEdges]
			}
			d.OutAttr, d.InAttr = d.OutAttr[:min(len(d.OutAttr), len(d.Out))], d.InAttr[:min(len(d.InAttr), len(d.In))]
			p.Edges[t] = d
		}
	}
	if opt.Clip && len(p.Doc) > maxDocBytes {
		p.Doc = strings.ToValidUTF8(p.Doc[:maxDocBytes], "") + " …(cut)"
	}
	return p, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// nearPrefix is the part of an ID that a near miss likely shares: up to the
// '#' for symbols and docs, else the whole ID minus its last path element.
func nearPrefix(id string) string {
	if i := strings.IndexByte(id, '#'); i >= 0 {
		return id[:i+1]
	}
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[:i+1]
	}
	return id
}

// readSource returns lines [start, end] of a file under the indexed root
// (at most MaxSourceLines, then cut after the last blank line of the final
// quarter so that a statement is not split when it can be helped), the
// last line shown when that is before end (else 0), and whether the file
// changed since the build.
func readSource(snap *graph.Snapshot, path string, start, end int, clip bool) (string, int, bool) {
	root := snap.Info().Root
	if root == "" || graph.CheckPath(path) != nil {
		return "", 0, false
	}
	full := filepath.Join(root, filepath.FromSlash(path))
	stale := false
	if rec, ok := snap.FileStat(path); ok {
		if fi, err := os.Stat(full); err != nil || fi.Size() != rec.Size || fi.ModTime().UnixNano() != rec.ModTime {
			stale = true
		}
	}
	f, err := os.Open(full)
	if err != nil {
		return "", 0, true
	}
	defer f.Close()
	if end < start {
		end = start
	}
	last := end
	if end-start+1 > MaxSourceLines {
		last = start + MaxSourceLines - 1
	}
	var lines []string
	sc := bufio.NewScanner(io.LimitReader(f, 8<<20))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan() && n <= last; n++ {
		if n >= start {
			line := sc.Text()
			if clip && len(line) > maxPageLineBytes {
				line = line[:maxPageLineBytes] + " …"
			}
			lines = append(lines, strings.ToValidUTF8(line, "\uFFFD"))
		}
	}
	to := 0
	if last < end && len(lines) == last-start+1 {
		keep := len(lines)
		for i := len(lines) - 1; i >= len(lines)*3/4; i-- {
			if strings.TrimSpace(lines[i]) == "" {
				keep = i
				break
			}
		}
		lines = lines[:keep]
		to = start + keep - 1
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), to, stale
}

// Front says whom a rendered page's hints address.
type Front int

// The fronts: the command line and the MCP tools.
const (
	FrontCLI Front = iota
	FrontMCP
)

// relatedHint names what lists all of a page's neighbours.
func (f Front) relatedHint() string {
	if f == FrontMCP {
		return "wiki_related"
	}
	return "'wikitoolkit related'"
}

// looseHint names what lists a page's loose references.
func (f Front) looseHint() string {
	if f == FrontMCP {
		return "wiki_related loose=true"
	}
	return "'wikitoolkit related --loose'"
}

// readHint says how to read lines from..to of path.
func (f Front) readHint(path string, from, to int) string {
	if f == FrontMCP {
		return fmt.Sprintf("wiki_read path=%q start=%d end=%d", path, from, to)
	}
	return fmt.Sprintf("wikitoolkit read %s:%d-%d", path, from, to)
}

// docInSource reports a doc that the source shows already (a docstring).
func docInSource(doc, src string) bool {
	for _, l := range strings.Split(doc, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return len(l) >= 8 && strings.Contains(src, l)
		}
	}
	return false
}

// Render writes the page as text, with hints (how to list all neighbours,
// how to read a cut source on) for front. A doc that the source shows (a
// docstring) is written once, in the source.
func (p *Page) Render(w io.Writer, front Front) {
	relatedHint := front.relatedHint()
	fmt.Fprintf(w, "%s  [%s", p.ID, p.Kind)
	if p.SymKind != "" {
		fmt.Fprintf(w, " %s", p.SymKind)
	}
	if p.Category != "" {
		fmt.Fprintf(w, " %s", p.Category)
	}
	fmt.Fprintln(w, "]")
	fmt.Fprintf(w, "%s\n", p.Title)
	if p.Path != "" && p.Kind != "module" {
		if p.Line > 0 {
			fmt.Fprintf(w, "%s:%d", p.Path, p.Line)
			if p.EndLine > p.Line {
				fmt.Fprintf(w, "-%d", p.EndLine)
			}
			fmt.Fprintln(w)
		} else {
			fmt.Fprintln(w, p.Path)
		}
	}
	if p.Indexing != "" && (p.Kind == "file" || p.Kind == "symbol") {
		fmt.Fprintf(w, "(%s, %s)\n", p.Lang, p.Indexing)
	}
	if p.Created != "" {
		fmt.Fprintf(w, "written %s\n", p.Created)
	}
	if p.Standing != "" {
		fmt.Fprintf(w, "(%s; confirm with wiki_note confirm=true on the page, or 'wikitoolkit note --confirm')\n", p.Standing)
	}
	if p.Doc != "" && !docInSource(p.Doc, p.Source) {
		fmt.Fprintf(w, "\n%s\n", p.Doc)
	}
	if p.Source != "" {
		if p.Stale {
			fmt.Fprintln(w, "\n(STALE: the file changed since the last build; the index refreshes itself shortly, or run 'wikitoolkit build')")
		}
		fmt.Fprintf(w, "\n%s", p.Source)
		if p.SourceTo > 0 && p.EndLine > p.SourceTo {
			fmt.Fprintf(w, "… cut at line %d of %d-%d; read on: %s\n", p.SourceTo, p.Line, p.EndLine,
				front.readHint(p.Path, p.SourceTo+1, p.EndLine))
		}
	}
	for _, t := range []string{"contains", "references", "imports", "relates"} {
		d, ok := p.Edges[t]
		if !ok {
			continue
		}
		printIDs(w, t+" →", d.Out, len(d.Out), relatedHint)
		total := max(d.InTotal, len(d.In))
		printIDs(w, t+" ←", d.In, total, relatedHint)
		if d.LooseOut > 0 || d.LooseIn > 0 {
			fmt.Fprintf(w, "\n%s matched by name only (a name defined several times, or a common method name; often wrong): %d out, %d in, not listed (%s lists them)\n",
				t, d.LooseOut, d.LooseIn, front.looseHint())
		}
	}
	stale := false
	for _, n := range p.Notes {
		fmt.Fprintf(w, "\nnote %s: %s", n.Time, n.Text)
		if n.Stale != "" {
			fmt.Fprintf(w, " (%s)", n.Stale)
		}
		fmt.Fprintln(w)
		stale = stale || n.State == "stale"
	}
	if stale {
		fmt.Fprintln(w, "(if a possibly stale note still holds, confirm it: wiki_note confirm=true, or 'wikitoolkit note --confirm ID')")
	}
}

func printIDs(w io.Writer, label string, ids []string, total int, hint string) {
	if len(ids) == 0 {
		return
	}
	const show = 20
	fmt.Fprintf(w, "\n%s (%d)\n", label, total)
	for i, id := range ids {
		if i == show {
			fmt.Fprintf(w, "  … %d more (%s lists them)\n", total-show, hint)
			break
		}
		fmt.Fprintf(w, "  %s\n", id)
	}
}

// noPage is a missing-page error whose text says what to do next; it
// matches graph.ErrNotFound with errors.Is.
type noPage struct{ msg string }

func (e noPage) Error() string { return e.msg }
func (e noPage) Unwrap() error { return graph.ErrNotFound }
