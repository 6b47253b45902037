package engine

import (
	"strings"
	"unsafe"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// record is what rendering needs of a page; it is decoded only for the
// pages an answer shows (and for the few whose path a question names).
type record struct {
	id, title, path, name, qual, snippet string
	line                                 int
	marks                                uint64 // graph.TextTitleMark, graph.TextSnippetMark: title, snippet hold graph.NameMark
	idBuilt                              bool   // id is not stored: record built it (defaultID, aliasing no index memory), recordParts left it empty
}

// titleCopy and snippetCopy return the title and snippet, their name mark
// replaced, copied out of the index memory.
func (r *record) titleCopy() string {
	return unmarkCopy(r.title, r.name, r.marks&graph.TextTitleMark != 0)
}
func (r *record) snippetCopy() string {
	return unmarkCopy(r.snippet, r.name, r.marks&graph.TextSnippetMark != 0)
}

func unmarkCopy(s, name string, marked bool) string {
	if marked && strings.Contains(s, graph.NameMark) {
		return graph.UnmarkName(s, name)
	}
	return strings.Clone(s)
}

// snippetMaxBytes bounds the stored first line of a page's doc.
const snippetMaxBytes = graph.SnippetMaxBytes

// Page records are the generation's page text (graph.EncodeText, stored as
// x/text and shared with the graph): a header of the flags below, then the
// strings the flags say are present, in this order — path, name, title, id
// — then qual, snippet and line. By default a symbol or section takes its
// path from its group page (its file), a name from its qualified name's
// last part (a file's and module's from its path), a title equal to its
// path or its name, and an ID built from kind, path and qualified name as
// graph.SymbolID and friends do. On moby this halved the records (1.09 →
// 0.70 MB compressed); sharing them with the graph saved as much again.
const (
	recPath      = graph.TextPath      // path stored
	recName      = graph.TextName      // name stored
	recTitle     = graph.TextTitle     // title stored (else recTitleName says which default)
	recTitleName = graph.TextTitleName // title is the name (else the path)
	recID        = graph.TextID        // id stored
)

func (ix *segment) buildRecords(g *graph.Graph) {
	ix.recOff, ix.rec = graph.EncodeText(g, ix.group)
}

func defaultName(k graph.Kind, p, qual string) string { return graph.DefaultName(k, p, qual) }

func defaultID(k graph.Kind, path, name, qual string) string {
	return graph.DefaultID(k, path, name, qual)
}

// recReader walks one stored record.
type recReader struct {
	b   []byte
	bad bool
}

func (r *recReader) uint() uint64 {
	v, k := uvarint(r.b)
	if k <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[k:]
	return v
}

// str returns the next string, aliasing index memory.
func (r *recReader) str() string {
	l := r.uint()
	if r.bad || uint64(len(r.b)) < l {
		r.bad, r.b = true, nil
		return ""
	}
	s := unsafeString(r.b[:l])
	r.b = r.b[l:]
	return s
}

func (ix *Index) recReader(i uint32) recReader {
	if int(i) >= ix.n {
		return recReader{bad: true}
	}
	sg := ix.segOf(i)
	i -= sg.base
	if int(i)+1 >= len(sg.recOff) {
		return recReader{bad: true}
	}
	v := sg.recs.Load()
	if v.chunks != nil {
		b := ix.recs.record(sg, v.chunks, i)
		return recReader{b: b, bad: b == nil}
	}
	return recReader{b: v.rec[sg.recOff[i]:sg.recOff[i+1]]}
}

// record decodes page i's record. Strings may alias the index's memory:
// copy them (strings.Clone; titleCopy and snippetCopy for the title and
// snippet, which may hold a name mark) before handing them out of the
// package.
func (ix *Index) record(i uint32) record {
	r := ix.recordParts(i)
	if r.idBuilt {
		r.id = defaultID(graph.Kind(ix.kind[i]), r.path, r.name, r.qual)
	}
	return r
}

// recordParts is record without building an ID the record leaves out:
// then id is empty and idBuilt set, and idPartsOf gives the ID's parts
// (a stub copies them, and building the ID was an allocation a stub).
func (ix *Index) recordParts(i uint32) record {
	var r record
	rr := ix.recReader(i)
	flags := rr.uint()
	if rr.bad {
		return r
	}
	r.path = ix.pathOf(i, flags, &rr)
	var id string
	if flags&recName != 0 {
		r.name = rr.str()
	}
	if flags&recTitle != 0 {
		r.title = rr.str()
	}
	if flags&recID != 0 {
		id = rr.str()
	}
	r.qual = rr.str()
	r.snippet = rr.str()
	r.line = int(rr.uint())
	if rr.bad {
		return record{}
	}
	kind := graph.Kind(ix.kind[i])
	if flags&recName == 0 {
		r.name = defaultName(kind, r.path, r.qual)
	}
	r.marks = flags & (graph.TextTitleMark | graph.TextSnippetMark)
	switch {
	case flags&recTitle != 0:
	case flags&recTitleName != 0:
		r.title = r.name
	default:
		r.title = r.path
	}
	r.id, r.idBuilt = id, flags&recID == 0
	return r
}

// pathOf returns the path of page i whose reader rr has read the flags.
func (ix *Index) pathOf(i uint32, flags uint64, rr *recReader) string {
	if flags&recPath != 0 {
		return rr.str()
	}
	if g := ix.group[i]; g != i {
		return ix.path(g)
	}
	return ""
}

// symbolName returns what a file's stub lists of its member i: the
// member's qualified name, else its name, and its line, decoding no
// more of its record than that (record builds the ID and title too).
// Strings alias index memory.
func (ix *Index) symbolName(i uint32) (string, int) {
	rr := ix.recReader(i)
	flags := rr.uint()
	if rr.bad {
		return "", 0
	}
	if flags&recPath != 0 {
		rr.str()
	}
	var name string
	if flags&recName != 0 {
		name = rr.str()
	}
	if flags&recTitle != 0 {
		rr.str()
	}
	if flags&recID != 0 {
		rr.str()
	}
	qual := rr.str()
	rr.str() // snippet
	line := int(rr.uint())
	switch {
	case rr.bad:
		return "", 0
	case qual != "":
		return qual, line
	case flags&recName == 0:
		r := ix.record(i) // the default name, which may need the path
		return r.name, r.line
	}
	return name, line
}

// id returns page i's ID.
func (ix *Index) id(i uint32) string { return ix.record(i).id }

// idParts returns page i's ID as parts whose concatenation it is, without
// building it: ranking breaks score ties by ID, on a hot path.
func (ix *Index) idParts(i uint32) [5]string {
	rr := ix.recReader(i)
	flags := rr.uint()
	if rr.bad {
		return [5]string{}
	}
	p := ix.pathOf(i, flags, &rr)
	if flags&recName != 0 {
		rr.str()
	}
	if flags&recTitle != 0 {
		rr.str()
	}
	if flags&recID != 0 {
		return [5]string{rr.str()}
	}
	switch k := graph.Kind(ix.kind[i]); k {
	case graph.KindModule, graph.KindFile:
		return [5]string{k.String(), ":", p}
	case graph.KindSymbol, graph.KindDoc:
		return [5]string{k.String(), ":", p, "#", rr.str()}
	}
	return [5]string{ix.id(i)}
}

// compareParts compares the concatenations of a and b.
func compareParts(a, b [5]string) int {
	ai, bi := 0, 0 // current part
	as, bs := a[0], b[0]
	for {
		for as == "" && ai < len(a)-1 {
			ai++
			as = a[ai]
		}
		for bs == "" && bi < len(b)-1 {
			bi++
			bs = b[bi]
		}
		if as == "" || bs == "" {
			return len(as) - len(bs) // the exhausted one is smaller
		}
		n := min(len(as), len(bs))
		if c := strings.Compare(as[:n], bs[:n]); c != 0 {
			return c
		}
		as, bs = as[n:], bs[n:]
	}
}

// path returns page i's path (aliasing index memory).
func (ix *Index) path(i uint32) string {
	rr := ix.recReader(i)
	flags := rr.uint()
	if rr.bad {
		return ""
	}
	return ix.pathOf(i, flags, &rr)
}

// unsafeString views b as a string without copying; b must never change.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
