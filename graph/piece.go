package graph

import (
	"cmp"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// Piece is the derived data one file owns: its pages and the edges that
// leave them. A Piece depends on its file's record and on what resolution
// read from the World (see ResolvePieces); it names edge targets by page ID
// because the target may belong to another piece, or another segment.
// The zero Piece owns nothing.
type Piece struct {
	Path string
	// Pages are the file page first, then its symbol and doc pages in
	// definition order: definition i is Pages[1+i] (restoreText counts on
	// it once pieces are assembled in path order).
	Pages []Page
	// Edges leave Pages, plus the contains edge from the module of the
	// file's directory to the file (From == FromModule), sorted by (From,
	// Type, To) without duplicates.
	Edges []PieceEdge
}

// PieceEdge is an edge of a Piece: from one of its pages to a page ID.
type PieceEdge struct {
	From uint32 // index into Piece.Pages, or FromModule
	To   string // page ID
	Type EdgeType
	Attr EdgeAttr
}

// FromModule as a PieceEdge's From stands for the module page of the
// piece's directory (ModuleID(dirOf(Path))); in a module piece it is not used.
const FromModule = ^uint32(0)

func comparePieceEdge(a, b PieceEdge) int {
	if a.From != b.From {
		return cmp.Compare(a.From, b.From)
	}
	if a.Type != b.Type {
		return cmp.Compare(a.Type, b.Type)
	}
	return strings.Compare(a.To, b.To)
}

// sortEdges puts a piece's edges in canonical order, without duplicates.
func (pc *Piece) sortEdges() {
	slices.SortFunc(pc.Edges, comparePieceEdge)
	k := 0
	for i := range pc.Edges {
		if k > 0 && comparePieceEdge(pc.Edges[i], pc.Edges[k-1]) == 0 {
			pc.Edges[k-1].Attr = mergeAttr(pc.Edges[k-1].Attr, pc.Edges[i].Attr)
			continue
		}
		pc.Edges[k] = pc.Edges[i]
		k++
	}
	pc.Edges = pc.Edges[:k]
}

// filePages appends to pages the file page and definition pages of f, as
// a full build has always made them.
func filePages(f *FileRecord, pages []Page) []Page { return makePages(f, pages, true) }

// namePages is filePages without what only ranking reads (identifiers,
// literals, titles): what a World takes of a file (ID, name, qualified
// name, path, language, locality), made once more per file by a full
// build before its references resolve.
func namePages(f *FileRecord, pages []Page) []Page { return makePages(f, pages, false) }

// makePages is filePages, or namePages unless all.
func makePages(f *FileRecord, pages []Page, all bool) []Page {
	facts := f.Facts
	if facts == nil {
		facts = &parser.Facts{}
	}
	test := walk.IsTest(f.Path)
	var idents, lits [][]string
	if all {
		idents = identsByDef(facts.Refs, len(facts.Defs), maxIdents)
		lits = literalsByDef(facts, maxLiterals)
	}
	identsOf := func(i int) []string {
		if i+1 < len(idents) {
			return idents[i+1]
		}
		return nil
	}
	litsOf := func(i int) []string {
		if i+1 < len(lits) {
			return lits[i+1]
		}
		return nil
	}
	fileID := FileID(f.Path)
	pages = append(pages, Page{ID: fileID, Kind: KindFile, Title: f.Path, Name: path.Base(f.Path), Path: f.Path,
		Line: 1, Lang: f.Lang, Doc: facts.Doc, Idents: identsOf(-1), Literals: litsOf(-1), Test: test,
		Hash: uint32(f.Hash) | 1})
	seen := make(map[string]int, len(facts.Defs))
	for di := range facts.Defs {
		d := &facts.Defs[di]
		qual := pageQual(seen, d)
		p := Page{Name: d.Name, Qualified: qual, Path: f.Path, Line: d.StartLine, EndLine: d.EndLine, Lang: f.Lang,
			Doc: d.Doc, Test: test}
		if d.Parent >= 0 && d.Parent < di {
			k := facts.Defs[d.Parent].Kind
			p.Local = k == parser.KindFunc || k == parser.KindMethod
		}
		if di < len(f.DefHash) && di < len(f.BodyHash) {
			p.Hash, p.BodyHash = f.DefHash[di], f.BodyHash[di]
		}
		if d.Kind == parser.KindSection {
			p.ID, p.Kind, p.Title = DocID(f.Path, qual), KindDoc, d.Name
		} else {
			p.ID, p.Kind, p.SymKind = SymbolID(f.Path, qual), KindSymbol, d.Kind.String()
			p.Title = d.Signature
			if p.Title == "" && all {
				p.Title = d.Kind.String() + " " + d.Qualified
			}
			p.Idents = identsOf(di)
			p.Literals = litsOf(di)
		}
		pages = append(pages, p)
	}
	return pages
}

// pageCount is the number of pages filePages makes of f.
func pageCount(f *FileRecord) int {
	if f.Facts == nil {
		return 1
	}
	return 1 + len(f.Facts.Defs)
}

// ModuleDocPriority says whether f's doc may stand for its directory's
// module and how strongly: a Go doc.go 4, a README 3, __init__.py, mod.rs,
// lib.rs, index.ts or index.js 2, another Go file whose doc starts
// "Package " 1; 0: it may not. Among a directory's files the highest
// priority wins, the first in path order on a tie.
func ModuleDocPriority(f *FileRecord) int {
	if f.Facts == nil || f.Facts.Doc == "" {
		return 0
	}
	base := strings.ToLower(path.Base(f.Path))
	switch {
	case base == "doc.go":
		return 4
	case strings.HasPrefix(base, "readme"):
		return 3
	case base == "__init__.py" || base == "mod.rs" || base == "lib.rs" || base == "index.ts" || base == "index.js":
		return 2
	case f.Lang == "go" && strings.HasPrefix(f.Facts.Doc, "Package "):
		return 1
	}
	return 0
}

// ModulePiece returns the module pages of the files' directories and of
// their ancestors ("." always), in directory order, with the module →
// module contains edges (From indexes Pages). Only each record's Path,
// Lang and Facts.Doc are read, so a caller may pass records holding no
// more; files must be sorted by path for the module doc's tie-break.
func ModulePiece(files []*FileRecord) Piece {
	dirs := map[string]bool{".": true}
	for _, f := range files {
		for d := dirOf(f.Path); !dirs[d]; d = dirOf(d) {
			dirs[d] = true
		}
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	// Module doc: a Go package comment (doc.go first), else the README's first paragraph.
	docs := map[string]string{}
	prio := map[string]int{}
	for _, f := range files {
		if p := ModuleDocPriority(f); p > 0 {
			if d := dirOf(f.Path); p > prio[d] {
				prio[d], docs[d] = p, f.Facts.Doc
			}
		}
	}
	pc := Piece{Pages: make([]Page, 0, len(sorted)), Edges: make([]PieceEdge, 0, len(sorted))}
	idx := make(map[string]uint32, len(sorted))
	for _, d := range sorted {
		name := path.Base(d)
		if d == "." {
			name = "."
		}
		idx[d] = uint32(len(pc.Pages))
		pc.Pages = append(pc.Pages, Page{ID: ModuleID(d), Kind: KindModule, Title: d, Name: name, Path: d, Doc: docs[d], Test: d != "." && walk.IsTest(d+"/x")})
		if d != "." {
			pc.Edges = append(pc.Edges, PieceEdge{From: idx[dirOf(d)], To: ModuleID(d), Type: Contains})
		}
	}
	pc.sortEdges()
	return pc
}

// AssembleGraph joins a module piece and file pieces into a Graph: the
// module pages first, then each piece's pages in the order given (path
// order keeps what restoreText needs: a file's definitions follow it).
// Edges to IDs no piece holds are dropped, so pieces resolved against a
// larger world assemble into a consistent part of it. It copies the pages;
// the pieces are not modified.
func AssembleGraph(modules Piece, pieces []Piece) *Graph {
	n := len(modules.Pages)
	for i := range pieces {
		n += len(pieces[i].Pages)
	}
	pages := make([]Page, 0, n)
	pages = append(pages, modules.Pages...)
	for i := range pieces {
		pages = append(pages, pieces[i].Pages...)
	}
	return assemblePieces(modules, pieces, pages)
}

// assemblePieces is AssembleGraph given the pages already laid out in its order.
func assemblePieces(modules Piece, pieces []Piece, pages []Page) *Graph {
	a := newAssembler(pages)
	a.add(0, &modules)
	base := uint32(len(modules.Pages))
	for i := range pieces {
		a.add(base, &pieces[i])
		base += uint32(len(pieces[i].Pages))
	}
	return a.graph(pages)
}

// assembler turns the edges of pieces, added one at a time, into the
// edges of one graph of pages.
type assembler struct {
	byID  map[string]uint32
	edges []Edge
}

func newAssembler(pages []Page) *assembler {
	a := &assembler{byID: make(map[string]uint32, len(pages))}
	for i := range pages {
		a.byID[pages[i].ID] = uint32(i)
	}
	return a
}

// add adds the edges of pc, whose pages start at index base, dropping
// those to IDs of no page.
func (a *assembler) add(base uint32, pc *Piece) {
	mod, modOK := uint32(0), false
	for _, e := range pc.Edges {
		f := base + e.From
		if e.From == FromModule {
			if !modOK {
				if mod, modOK = a.byID[ModuleID(dirOf(pc.Path))]; !modOK {
					continue
				}
			}
			f = mod
		}
		if t, ok := a.byID[e.To]; ok && t != f {
			a.edges = append(a.edges, Edge{From: f, To: t, Type: e.Type, Attr: e.Attr})
		}
	}
}

func (a *assembler) graph(pages []Page) *Graph { return newGraphIndexed(pages, a.edges, a.byID) }
