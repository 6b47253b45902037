package engine

import (
	"unsafe"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// record is what rendering needs of a page; it is decoded only for the
// pages an answer shows (and for the few whose path a question names).
type record struct {
	id, title, path, name, qual, symKind, snippet string
	line, endLine                                 int
}

// snippetMaxBytes bounds the stored first line of a page's doc.
const snippetMaxBytes = 200

func (ix *Index) buildRecords(g *graph.Graph) {
	ix.recOff = make([]uint32, 0, ix.n+1)
	var b []byte
	for i := range g.Pages {
		p := &g.Pages[i]
		ix.recOff = append(ix.recOff, uint32(len(b)))
		for _, s := range [...]string{p.ID, p.Title, p.Path, p.Name, p.Qualified, p.SymKind, firstLine(p.Doc, snippetMaxBytes)} {
			b = appendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
		b = appendUvarint(b, uint64(max(0, p.Line)))
		b = appendUvarint(b, uint64(max(0, p.EndLine)))
	}
	ix.recOff = append(ix.recOff, uint32(len(b)))
	ix.rec = b
}

// record decodes page i's record. Strings alias the index's memory: copy
// them (string(...)) before handing them out of the package.
func (ix *Index) record(i uint32) record {
	var r record
	if int(i) >= ix.n {
		return r
	}
	b := ix.rec[ix.recOff[i]:ix.recOff[i+1]]
	str := func() string {
		l, k := uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			b = nil
			return ""
		}
		s := unsafeString(b[k : k+int(l)])
		b = b[k+int(l):]
		return s
	}
	r.id, r.title, r.path, r.name, r.qual, r.symKind, r.snippet = str(), str(), str(), str(), str(), str(), str()
	l, k := uvarint(b)
	if k > 0 {
		r.line = int(l)
		b = b[k:]
		if l, k = uvarint(b); k > 0 {
			r.endLine = int(l)
		}
	}
	return r
}

// id returns page i's ID (aliasing index memory).
func (ix *Index) id(i uint32) string {
	if int(i) >= ix.n {
		return ""
	}
	b := ix.rec[ix.recOff[i]:ix.recOff[i+1]]
	l, k := uvarint(b)
	if k <= 0 || uint64(len(b)-k) < l {
		return ""
	}
	return unsafeString(b[k : k+int(l)])
}

// path returns page i's path (aliasing index memory).
func (ix *Index) path(i uint32) string {
	if int(i) >= ix.n {
		return ""
	}
	b := ix.rec[ix.recOff[i]:ix.recOff[i+1]]
	for range 2 { // skip id, title
		l, k := uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return ""
		}
		b = b[k+int(l):]
	}
	l, k := uvarint(b)
	if k <= 0 || uint64(len(b)-k) < l {
		return ""
	}
	return unsafeString(b[k : k+int(l)])
}

// unsafeString views b as a string without copying; b must never change.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
