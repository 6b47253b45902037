package graph

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

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
// reused; so do most definitions' kind, name, qualified name and lines,
// which the facts blob leaves to the graph (derivedDefs); path, size, mtime
// and content hash live in m/stats (EachFileRecord). References keep no
// line: after dedupeRefs nothing reads it.
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
	// bytes.IndexByte finds the newlines by whole words, not a byte at a
	// time (moby: fingerprint 0.05–0.09 → 0.02–0.03 s of a build's CPU).
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
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

// The facts blob ("x/facts") holds every stored FileRecord, in path
// order, without what other parts of the generation hold (see FileRecord):
// its paths are m/stats'. It is columnar: a generation-wide sorted,
// front-coded table of the names and qualifiers of definitions and
// references; then sections, each one field of every file, definition,
// reference, import or diagnostic in turn. A file lists the table entries
// it uses (ascending, delta-coded) and its definitions and references
// index that list. Rows of per-file string tables took moby's facts to
// 1.13 MB; this layout to ~0.8 MB.

// The sections of the facts blob, in order.
const (
	fLang = iota // per file: Lang, Facts.Language (indexes of the kinds table)
	fTab         // per file: entry count, then table indexes, delta-coded
	fDefs        // per file: definition count
	fDefKind
	fDefName // index in the file's list
	fDefQual
	fDefParent
	fDefStart
	fDefLen  // EndLine - StartLine
	fRefs    // per file: reference count
	fRefPair // qualifier's index, then name's index<<4 | selected<<3 | typed<<2 | kind (3: the kind is in fRefKind)
	fRefKind
	fRefType // per typed reference: its Type's index
	fRefEnc
	fLits // per file: string literal count
	fLitText
	fLitEnc
	fImps // per file: import count
	fImpPath
	fImpAlias
	fImpLine
	fDiags // per file: diagnostic count
	fDiagLine
	fDiagCol
	fDiagMsg
	numFactSections
)

// encodeFactsBlob encodes the records' facts (see above), and returns
// where each section starts (for compressParts).
//
// The first pass numbers each distinct name and qualifier as first seen,
// one map operation per use, and keeps each use's number in the order
// the second pass reads them; the second finds a file's entries by those
// numbers in a dense array, with no map. Three lookups by string per use
// (the table's, the file's list's, the field's) and the file lists'
// maps were moby's 0.16 s of a build's CPU; this is 0.09 s.
func encodeFactsBlob(all []*FileRecord) ([]byte, []int) {
	nUses, nDefs := 0, 0
	for _, r := range all {
		if f := r.Facts; f != nil {
			nDefs += len(f.Defs)
			nUses += 2*len(f.Defs) + 3*len(f.Refs)
		}
	}
	ids := make(map[string]uint32, nUses/8)
	var table []string
	uses := make([]uint32, 0, nUses)  // every use's number, in reading order
	derived := make([]bool, 0, nDefs) // defDerived of every definition
	num := func(s string) {
		id, ok := ids[s]
		if !ok {
			id = uint32(len(table))
			ids[s] = id
			table = append(table, s)
		}
		uses = append(uses, id)
	}
	for _, r := range all {
		if f := r.Facts; f != nil {
			for j, d := range f.Defs {
				der := r.defDerived(j)
				derived = append(derived, der)
				if !der {
					num(d.Name)
					num(d.Qualified)
				}
			}
			for _, rf := range f.Refs {
				num(rf.Name)
				num(rf.Qualifier)
				if rf.Type != "" {
					num(rf.Type)
				}
			}
		}
	}
	// The table sorted; uses renumbered by it.
	order := make([]uint32, len(table))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(table[a], table[b]) })
	rank := make([]uint32, len(table))
	sorted := make([]string, len(table))
	for i, id := range order {
		rank[id] = uint32(i)
		sorted[i] = table[id]
	}
	table, order = sorted, nil
	for i, id := range uses {
		uses[i] = rank[id]
	}
	rank = nil
	var sec [numFactSections]enc
	var kinds strTable
	var used []uint32
	// local[id] is 1 + the index of table entry id in the file's list, 0
	// when the file does not use it (reset after each file).
	local := make([]uint32, len(table))
	next := func() uint64 { // the file's index of the next use
		id := uses[0]
		uses = uses[1:]
		return uint64(local[id] - 1)
	}
	var none parser.Facts
	for _, r := range all {
		f := r.Facts
		if f == nil {
			f = &none
		}
		sec[fLang].uint(kinds.id(r.Lang))
		sec[fLang].uint(kinds.id(f.Language))
		// This file's uses, as the first pass numbered them.
		n := 0
		for j := range f.Defs {
			if !derived[j] {
				n += 2
			}
		}
		for i := range f.Refs {
			n += 2
			if f.Refs[i].Type != "" {
				n++
			}
		}
		used = used[:0]
		for _, id := range uses[:n] {
			if local[id] == 0 {
				local[id] = 1
				used = append(used, id)
			}
		}
		slices.Sort(used)
		sec[fTab].uint(uint64(len(used)))
		var last uint32
		for j, id := range used {
			local[id] = uint32(j) + 1
			sec[fTab].uint(uint64(id - last))
			last = id
		}
		sec[fDefs].uint(uint64(len(f.Defs)))
		for j, d := range f.Defs {
			sec[fDefParent].int(d.Parent)
			if derived[j] {
				sec[fDefKind].uint(0)
				continue
			}
			sec[fDefKind].uint(uint64(d.Kind) + 1)
			sec[fDefName].uint(next())
			sec[fDefQual].uint(next())
			sec[fDefStart].int(d.StartLine)
			sec[fDefLen].int(d.EndLine - d.StartLine)
		}
		derived = derived[len(f.Defs):]
		sec[fRefs].uint(uint64(len(f.Refs)))
		for i := range f.Refs {
			rf := &f.Refs[i]
			name := next()
			// Paired, qualifier and name compress 5% better than apart.
			sec[fRefPair].uint(next())
			k := min(uint64(rf.Kind), 3)
			typed := uint64(0)
			if rf.Type != "" {
				typed = 4
			}
			if rf.Selected {
				typed |= 8
			}
			sec[fRefPair].uint(name<<4 | typed | k)
			if k == 3 {
				sec[fRefKind].uint(uint64(rf.Kind))
			}
			if typed&4 != 0 {
				sec[fRefType].uint(next())
			}
			sec[fRefEnc].int(int(rf.Enclosing))
		}
		for _, id := range used {
			local[id] = 0
		}
		sec[fLits].uint(uint64(len(f.Literals)))
		for _, l := range f.Literals {
			sec[fLitText].str(l.Text)
			sec[fLitEnc].int(l.Enclosing)
		}
		sec[fImps].uint(uint64(len(f.Imports)))
		for _, im := range f.Imports {
			sec[fImpPath].str(im.Path)
			sec[fImpAlias].str(im.Alias)
			sec[fImpLine].int(im.Line)
		}
		sec[fDiags].uint(uint64(len(f.Diagnostics)))
		for _, dg := range f.Diagnostics {
			sec[fDiagLine].int(dg.Line)
			sec[fDiagCol].int(dg.Column)
			sec[fDiagMsg].str(dg.Message)
		}
	}
	size := 64
	for _, s := range table {
		size += len(s) + 2
	}
	for i := range sec {
		size += len(sec[i].b) + 5
	}
	e := enc{b: make([]byte, 0, size)}
	e.uint(uint64(len(all)))
	e.uint(uint64(len(table)))
	prev := ""
	for _, s := range table {
		frontCode(&e, prev, s)
		prev = s
	}
	e.strs(kinds.strs)
	cuts := make([]int, 0, len(sec))
	for i := range sec {
		cuts = append(cuts, len(e.b))
		e.uint(uint64(len(sec[i].b)))
		e.b = append(e.b, sec[i].b...)
	}
	return e.b, cuts
}

// defDerived reports that definition j of r is stored as nothing but its
// parent: the page buildGraph makes of it (filePages: page fp+1+j
// of the same generation's graph, for file page fp) gives back its kind,
// name, qualified name and lines. That holds unless buildGraph changed its
// qualified name (empty, or repeated in the file) or its kind has no name.
func (r *FileRecord) defDerived(j int) bool {
	defs := r.Facts.Defs
	d := &defs[j]
	if d.Qualified == "" || (d.Kind != parser.KindSection && !kindNamed[d.Kind]) {
		return false
	}
	for k := range j { // qualified names repeat rarely and files have few definitions... mostly
		if q := defs[k].Qualified; q == d.Qualified || q == "" && defs[k].Name == d.Qualified {
			return false
		}
	}
	return true
}

// kindNamed[k] reports parser.ParseKind(k.String()) == k, which
// defDerived asks of every definition three times an encoding (a scan of
// the kinds' names each).
var kindNamed = func() (t [256]bool) {
	for k := range t {
		t[k] = parser.ParseKind(parser.DefKind(k).String()) == parser.DefKind(k)
	}
	return t
}()

// decodeFactsBlob calls fn for every record of a facts blob, in order,
// with the paths of stats (the records' paths, in the same order); the
// records have no stat or fingerprints.
func decodeFactsBlob(b []byte, stats []FileStat, g *Graph, fn func(*FileRecord) error) error {
	return decodeFacts(b, stats, g, nil, false, fn)
}

// decodeFactsRefs calls fn for the records of a facts blob whose paths
// want holds, in order, each with its path, languages, references and
// imports only: what Change.Affects reads of a file. It needs no graph
// (no definition is decoded) and allocates nothing for the other
// records, so an incremental build can ask it of every file that names
// a changed name (at 100k files a field such as Count is referenced by
// 33k of them) for a tenth of what their whole records cost.
func decodeFactsRefs(b []byte, stats []FileStat, want map[string]bool, fn func(*FileRecord) error) error {
	return decodeFacts(b, stats, nil, want, true, fn)
}

// decodeFacts calls fn for the records of a facts blob whose paths want
// holds (every one when want is nil), whole (decodeFactsBlob) or, with
// refsOnly, in part (decodeFactsRefs); the others are passed over, nothing
// made of them.
func decodeFacts(b []byte, stats []FileStat, g *Graph, want map[string]bool, refsOnly bool, fn func(*FileRecord) error) error {
	d := dec{b: b}
	n := d.count()
	if d.err == nil && n != len(stats) {
		return fmt.Errorf("%d file records for %d files", n, len(stats))
	}
	table := make([]string, d.count())
	prev := ""
	for i := range table {
		table[i] = frontDecode(&d, prev)
		prev = table[i]
	}
	kindNames := d.strs()
	var sec [numFactSections]dec
	for i := range sec {
		l := d.count()
		if d.err != nil {
			break
		}
		sec[i].b, d.b = d.b[:l], d.b[l:]
	}
	if d.err != nil || len(d.b) != 0 {
		return fmt.Errorf("facts: %w", errCorrupt)
	}
	kind := func(x uint64) string {
		if x >= uint64(len(kindNames)) {
			d.fail()
			return ""
		}
		return kindNames[x]
	}
	// count reads a count from s and checks it against what is left of
	// elems, the section of the counted elements' first field.
	count := func(s, elems *dec) int {
		k := s.uint()
		if k > uint64(len(elems.b)) {
			d.fail()
			return 0
		}
		return int(k)
	}
	var used []string
	var skipRec FileRecord // what a record not kept is read into
	var skipFacts parser.Facts
	for i := range n {
		// keep: the record is wanted (whole, or in part with refsOnly).
		keep := want == nil || want[stats[i].Path]
		r, f := &skipRec, &skipFacts
		if keep {
			r, f = &FileRecord{}, &parser.Facts{}
		}
		*r = FileRecord{Path: stats[i].Path, Lang: kind(sec[fLang].uint())}
		*f = parser.Facts{Language: kind(sec[fLang].uint())}
		r.Facts = f
		used = used[:0]
		var id uint64
		for j, k := 0, count(&sec[fTab], &sec[fTab]); j < k; j++ {
			if id += sec[fTab].uint(); id >= uint64(len(table)) {
				d.fail()
				break
			}
			used = append(used, table[id])
		}
		at := func(j uint64) string {
			if j >= uint64(len(used)) {
				d.fail()
				return ""
			}
			return used[j]
		}
		str := func(s *dec) string { return at(s.uint()) }
		if k := count(&sec[fDefs], &sec[fDefKind]); k > 0 && (refsOnly || !keep) {
			// Past the definitions: a derived one is its parent and kind.
			for range k {
				sec[fDefParent].int()
				if sec[fDefKind].uint() > 0 {
					at(sec[fDefName].uint())
					at(sec[fDefQual].uint())
					sec[fDefStart].int()
					sec[fDefLen].int()
				}
			}
		} else if k > 0 {
			f.Defs = make([]parser.Def, k)
			fp, ok := g.Lookup(FileID(r.Path))
			for j := range f.Defs {
				df := &f.Defs[j]
				df.Parent = sec[fDefParent].int()
				if dk := sec[fDefKind].uint(); dk > 0 {
					df.Kind = parser.DefKind(dk - 1)
				} else {
					// From the page buildGraph made of it (defDerived).
					pi := int(fp) + 1 + j
					if !ok || pi >= len(g.Pages) || g.Pages[pi].Path != r.Path {
						d.fail()
						break
					}
					p := &g.Pages[pi]
					df.Kind = parser.KindSection
					if p.Kind != KindDoc {
						df.Kind = parser.ParseKind(p.SymKind)
					}
					df.Name, df.Qualified, df.StartLine, df.EndLine = p.Name, p.Qualified, p.Line, p.EndLine
					continue
				}
				df.Name = str(&sec[fDefName])
				df.Qualified = str(&sec[fDefQual])
				df.StartLine = sec[fDefStart].int()
				df.EndLine = df.StartLine + sec[fDefLen].int()
			}
		}
		if k := count(&sec[fRefs], &sec[fRefEnc]); k > 0 {
			var skipped parser.Ref
			if keep {
				f.Refs = make([]parser.Ref, k)
			}
			for j := range k {
				rf := &skipped
				if keep {
					rf = &f.Refs[j]
				}
				rf.Qualifier = str(&sec[fRefPair])
				nk := sec[fRefPair].uint()
				rf.Name, rf.Kind, rf.Selected = at(nk>>4), parser.RefKind(nk&3), nk&8 != 0
				if rf.Kind == 3 {
					rf.Kind = parser.RefKind(sec[fRefKind].uint())
				}
				if nk&4 != 0 {
					rf.Type = at(sec[fRefType].uint())
				}
				rf.Enclosing = int32(sec[fRefEnc].int())
			}
		}
		if k := count(&sec[fLits], &sec[fLitEnc]); k > 0 && (refsOnly || !keep) {
			for range k {
				sec[fLitText].skip()
				sec[fLitEnc].int()
			}
		} else if k > 0 {
			f.Literals = make([]parser.Literal, k)
			for j := range f.Literals {
				f.Literals[j] = parser.Literal{Text: sec[fLitText].str(), Enclosing: sec[fLitEnc].int()}
			}
		}
		if k := count(&sec[fImps], &sec[fImpPath]); k > 0 && !keep {
			for range k {
				sec[fImpPath].skip()
				sec[fImpAlias].skip()
				sec[fImpLine].int()
			}
		} else if k > 0 {
			f.Imports = make([]parser.Import, k)
			for j := range f.Imports {
				f.Imports[j] = parser.Import{Path: sec[fImpPath].str(), Alias: sec[fImpAlias].str(), Line: sec[fImpLine].int()}
			}
		}
		if k := count(&sec[fDiags], &sec[fDiagLine]); k > 0 && (refsOnly || !keep) {
			for range k {
				sec[fDiagLine].int()
				sec[fDiagCol].int()
				sec[fDiagMsg].skip()
			}
		} else if k > 0 {
			f.Diagnostics = make([]parser.Diagnostic, k)
			for j := range f.Diagnostics {
				f.Diagnostics[j] = parser.Diagnostic{Line: sec[fDiagLine].int(), Column: sec[fDiagCol].int(), Message: sec[fDiagMsg].str()}
			}
		}
		for j := range sec {
			if sec[j].err != nil {
				d.fail()
			}
		}
		if d.err != nil {
			return fmt.Errorf("file record %s: %w", r.Path, d.err)
		}
		if !keep {
			continue
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	for j := range sec {
		if len(sec[j].b) != 0 {
			return fmt.Errorf("facts: %w", errCorrupt)
		}
	}
	return nil
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
	out := f.Refs[:0]
	if n := len(f.Refs); n <= smallRefs {
		// A few references: comparing against those kept beats hashing.
	next:
		for i := range f.Refs {
			r := &f.Refs[i]
			for j := range out {
				if sameRef(&out[j], r) {
					continue next
				}
			}
			out = append(out, *r)
		}
	} else {
		// An open-addressing table of indexes into out, sized for at most
		// half full: one hash per reference and no map entries to write or
		// clear (moby: 0.08–0.12 → 0.02–0.04 s of a build's CPU, 2 and 3
		// profiles a side).
		size := 1
		for size < 2*n {
			size <<= 1
		}
		tp := refTables.Get().(*[]int32)
		tab := *tp
		if cap(tab) < size {
			tab = make([]int32, size)
		} else {
			tab = tab[:size]
			clear(tab)
		}
		mask := uint64(size - 1)
		for i := range f.Refs {
			r := f.Refs[i]
			h := refHash(&r) & mask
			for {
				j := tab[h]
				if j == 0 {
					out = append(out, r)
					tab[h] = int32(len(out))
					break
				}
				if sameRef(&out[j-1], &r) {
					break
				}
				h = (h + 1) & mask
			}
		}
		if size <= maxPooledSet*2 {
			*tp = tab
			refTables.Put(tp)
		}
	}
	// The parser sized Refs for every capture: copied to their own size,
	// the records, alive until references resolve, shrink by a third
	// (50k-file synthetic repo: ~100 MB less live after parsing).
	f.Refs = append(make([]parser.Ref, 0, len(out)), out...)
}

// smallRefs is the most references dedupeRefs compares pairwise.
const smallRefs = 8

// sameRef reports whether a and b are the same reference for dedupeRefs:
// all but the line.
func sameRef(a, b *parser.Ref) bool {
	return a.Enclosing == b.Enclosing && a.Kind == b.Kind && a.Selected == b.Selected &&
		a.Name == b.Name && a.Qualifier == b.Qualifier && a.Type == b.Type
}

// refSeed seeds refHash; any seed gives the same output, only the
// table's probing differs.
var refSeed = maphash.MakeSeed()

// refHash hashes what sameRef compares.
func refHash(r *parser.Ref) uint64 {
	h := maphash.String(refSeed, r.Name)
	if r.Qualifier != "" {
		h ^= maphash.String(refSeed, r.Qualifier) * 0x9e3779b97f4a7c15
	}
	if r.Type != "" {
		h ^= maphash.String(refSeed, r.Type) * 0xc2b2ae3d27d4eb4f
	}
	x := uint64(uint32(r.Enclosing)) | uint64(r.Kind)<<32
	if r.Selected {
		x |= 1 << 40
	}
	h ^= x * 0x165667b19e3779f9
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// refTables and identSets hold the tables dedupeRefs and identsByDef fill
// once per file (twice for identsByDef in a full build: the world's pages
// and the resolved ones): a new map per call was the largest allocation
// of moby's full build (56 and 37 MB of 711 MB), and the garbage its
// collections mark.
var (
	refTables = sync.Pool{New: func() any { return new([]int32) }}
	identSets = sync.Pool{New: func() any { return &identScratch{seen: map[string]uint32{}} }}
)

// maxPooledSet bounds the table dedupeRefs gives back to its pool (twice
// this many slots): one huge file's table would cost every small one
// after it its clearing.
const maxPooledSet = 1 << 13

// PageRecord is a page with its neighbours' IDs by edge type and
// direction, as `page` and `related` show it, and the attributes of those
// edges (OutAttr[t][k] is Out[t][k]'s). Loose references (EdgeAttr.Loose)
// are not among them but in LooseOut and LooseIn. Lists longer than
// MaxStoredEdges are cut; InTotal and LooseInTotal keep the real counts of
// in-edges.
type PageRecord struct {
	Page
	Out, In           [numEdgeTypes][]string
	OutAttr, InAttr   [numEdgeTypes][]EdgeAttr
	InTotal           [numEdgeTypes]int
	LooseOut, LooseIn []string
	LooseInTotal      int
}

// MaxStoredEdges caps the neighbours listed per page, type and direction.
const MaxStoredEdges = 200

// Record returns page i with its neighbours.
func (g *Graph) Record(i uint32) *PageRecord {
	rec := &PageRecord{Page: g.Pages[i]}
	for _, e := range g.Out(i, 0, true) {
		switch {
		case e.Attr.Loose():
			if len(rec.LooseOut) < MaxStoredEdges {
				rec.LooseOut = append(rec.LooseOut, g.Pages[e.To].ID)
			}
		case len(rec.Out[e.Type]) < MaxStoredEdges:
			rec.Out[e.Type] = append(rec.Out[e.Type], g.Pages[e.To].ID)
			rec.OutAttr[e.Type] = append(rec.OutAttr[e.Type], e.Attr)
		}
	}
	for _, e := range g.In(i, 0, true) {
		if e.Attr.Loose() {
			rec.LooseInTotal++
			if len(rec.LooseIn) < MaxStoredEdges {
				rec.LooseIn = append(rec.LooseIn, g.Pages[e.From].ID)
			}
			continue
		}
		rec.InTotal[e.Type]++
		if len(rec.In[e.Type]) < MaxStoredEdges {
			rec.In[e.Type] = append(rec.In[e.Type], g.Pages[e.From].ID)
			rec.InAttr[e.Type] = append(rec.InAttr[e.Type], e.Attr)
		}
	}
	return rec
}
