package graph

import (
	"bytes"

	"github.com/cespare/xxhash/v2"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// FileRecord is what a generation keeps of one indexed file: its stat and
// content hash (for incremental builds) and its parser facts, so an
// incremental build re-resolves references without reparsing.
//
// Stored facts carry nothing another part of the generation already holds:
// definitions' signatures, docs and fingerprints and the file doc live once,
// on the pages, and restoreText copies them back when an unchanged file is
// reused; size, mtime and content hash live in m/stat (EachFileRecord).
// References keep no line: after dedupeRefs nothing reads it.
type FileRecord struct {
	Path    string
	Lang    string
	Size    int64
	ModTime int64  // UnixNano
	Hash    uint64 // xxhash64 of the content
	Facts   *parser.Facts
	// DefHash and BodyHash fingerprint each definition's lines (see
	// Page.Hash); they parallel Facts.Defs.
	DefHash, BodyHash []uint32
}

// fingerprint fills r.DefHash and r.BodyHash from the file's source.
func (r *FileRecord) fingerprint(src []byte) {
	if r.Facts == nil || len(r.Facts.Defs) == 0 {
		return
	}
	// starts[i] is the offset of line i+1.
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+2)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	lines := func(from, to int) []byte { // 1-based, inclusive
		if from < 1 || from > to || from > len(starts) {
			return nil
		}
		end := len(src)
		if to < len(starts) {
			end = starts[to]
		}
		return src[starts[from-1]:end]
	}
	r.DefHash = make([]uint32, len(r.Facts.Defs))
	r.BodyHash = make([]uint32, len(r.Facts.Defs))
	for i, d := range r.Facts.Defs {
		r.DefHash[i] = hash32(lines(d.StartLine, d.EndLine))
		if d.EndLine > d.StartLine+1 {
			r.BodyHash[i] = hash32(lines(d.StartLine+1, d.EndLine))
		}
	}
}

// hash32 is a non-zero 32-bit fingerprint of b (zero stays "unknown").
func hash32(b []byte) uint32 {
	h := uint32(xxhash.Sum64(b))
	if h == 0 {
		h = 1
	}
	return h
}

// marshal encodes r without definition text. Names and qualifiers go
// through a per-file string table: a file names the same identifiers over
// and over (moby: 4.1 uses per distinct name).
func (r *FileRecord) marshal() []byte {
	e := enc{b: make([]byte, 0, 256)}
	e.str(r.Path)
	e.str(r.Lang)
	f := r.Facts
	if f == nil {
		f = &parser.Facts{}
	}
	table := map[string]uint64{}
	var strs []string
	intern := func(s string) uint64 {
		if i, ok := table[s]; ok {
			return i
		}
		table[s] = uint64(len(strs))
		strs = append(strs, s)
		return uint64(len(strs) - 1)
	}
	for _, d := range f.Defs {
		intern(d.Name)
		intern(d.Qualified)
	}
	for _, rf := range f.Refs {
		intern(rf.Name)
		intern(rf.Qualifier)
	}
	e.str(f.Language)
	e.strs(strs)
	e.uint(uint64(len(f.Defs)))
	for _, d := range f.Defs {
		e.uint(uint64(d.Kind))
		e.uint(table[d.Name])
		e.uint(table[d.Qualified])
		e.int(d.Parent)
		e.int(d.StartLine)
		e.int(d.EndLine - d.StartLine)
	}
	e.uint(uint64(len(f.Refs)))
	for _, rf := range f.Refs {
		e.uint(table[rf.Name])
		e.uint(table[rf.Qualifier])
		e.uint(uint64(rf.Kind))
		e.int(rf.Enclosing)
	}
	e.uint(uint64(len(f.Literals)))
	for _, l := range f.Literals {
		e.str(l.Text)
		e.int(l.Enclosing)
	}
	e.uint(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		e.str(im.Path)
		e.str(im.Alias)
		e.int(im.Line)
	}
	e.uint(uint64(len(f.Diagnostics)))
	for _, dg := range f.Diagnostics {
		e.int(dg.Line)
		e.int(dg.Column)
		e.str(dg.Message)
	}
	return e.b
}

func unmarshalFileRecord(b []byte) (*FileRecord, error) {
	d := dec{b: b}
	r := &FileRecord{Path: d.str(), Lang: d.str()}
	f := &parser.Facts{Language: d.str()}
	r.Facts = f
	strs := d.strs()
	s := func() string {
		i := d.uint()
		if i >= uint64(len(strs)) {
			d.fail()
			return ""
		}
		return strs[i]
	}
	if n := d.count(); n > 0 {
		f.Defs = make([]parser.Def, n)
		for i := range f.Defs {
			df := &f.Defs[i]
			df.Kind = parser.DefKind(d.uint())
			df.Name = s()
			df.Qualified = s()
			df.Parent = d.int()
			df.StartLine = d.int()
			df.EndLine = df.StartLine + d.int()
		}
	}
	if n := d.count(); n > 0 {
		f.Refs = make([]parser.Ref, n)
		for i := range f.Refs {
			rf := &f.Refs[i]
			rf.Name = s()
			rf.Qualifier = s()
			rf.Kind = parser.RefKind(d.uint())
			rf.Enclosing = d.int()
		}
	}
	if n := d.count(); n > 0 {
		f.Literals = make([]parser.Literal, n)
		for i := range f.Literals {
			f.Literals[i] = parser.Literal{Text: d.str(), Enclosing: d.int()}
		}
	}
	if n := d.count(); n > 0 {
		f.Imports = make([]parser.Import, n)
		for i := range f.Imports {
			f.Imports[i] = parser.Import{Path: d.str(), Alias: d.str(), Line: d.int()}
		}
	}
	if n := d.count(); n > 0 {
		f.Diagnostics = make([]parser.Diagnostic, n)
		for i := range f.Diagnostics {
			f.Diagnostics[i] = parser.Diagnostic{Line: d.int(), Column: d.int(), Message: d.str()}
		}
	}
	return r, d.err
}

// restoreText fills the definition signatures, docs and fingerprints and
// the file doc of a stored record from the graph it was built into.
// buildGraph adds a file's definitions right after its file page, in
// order, which is what makes def i page fp+1+i.
func restoreText(r *FileRecord, g *Graph) {
	fp, ok := g.Lookup(FileID(r.Path))
	if !ok || r.Facts == nil {
		return
	}
	r.Facts.Doc = g.Pages[fp].Doc
	r.DefHash = make([]uint32, len(r.Facts.Defs))
	r.BodyHash = make([]uint32, len(r.Facts.Defs))
	for i := range r.Facts.Defs {
		pi := int(fp) + 1 + i
		if pi >= len(g.Pages) || g.Pages[pi].Path != r.Path {
			return
		}
		p := &g.Pages[pi]
		r.DefHash[i], r.BodyHash[i] = p.Hash, p.BodyHash
		r.Facts.Defs[i].Doc = p.Doc
		if p.Kind == KindSymbol {
			r.Facts.Defs[i].Signature = p.Title
		}
	}
}

// dedupeRefs drops repeated uses of the same name from the same
// definition: resolution and ranking only need each (name, qualifier,
// kind, enclosing) once, and moby's files repeat them 2.3 times on average.
func dedupeRefs(f *parser.Facts) {
	type key struct {
		name, qual string
		kind       parser.RefKind
		enc        int
	}
	seen := make(map[key]bool, len(f.Refs))
	out := f.Refs[:0]
	for _, r := range f.Refs {
		k := key{r.Name, r.Qualifier, r.Kind, r.Enclosing}
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	// The parser sized Refs for every capture: copied to their own size,
	// the records, alive until references resolve, shrink by a third
	// (50k-file synthetic repo: ~100 MB less live after parsing).
	f.Refs = append(make([]parser.Ref, 0, len(out)), out...)
}

// PageRecord is a page with its neighbours' IDs by edge type and
// direction, as `page` and `related` show it. Lists longer than
// MaxStoredEdges are cut; InTotal keeps the real count of in-edges.
type PageRecord struct {
	Page
	Out     [numEdgeTypes][]string
	In      [numEdgeTypes][]string
	InTotal [numEdgeTypes]int
}

// MaxStoredEdges caps the neighbours listed per page, type and direction.
const MaxStoredEdges = 200

// Record returns page i with its neighbours.
func (g *Graph) Record(i uint32) *PageRecord {
	rec := &PageRecord{Page: g.Pages[i]}
	for _, e := range g.Out(i, 0, true) {
		if len(rec.Out[e.Type]) < MaxStoredEdges {
			rec.Out[e.Type] = append(rec.Out[e.Type], g.Pages[e.To].ID)
		}
	}
	for _, e := range g.In(i, 0, true) {
		rec.InTotal[e.Type]++
		if len(rec.In[e.Type]) < MaxStoredEdges {
			rec.In[e.Type] = append(rec.In[e.Type], g.Pages[e.From].ID)
		}
	}
	return rec
}
