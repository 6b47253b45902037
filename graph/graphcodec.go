package graph

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unsafe"
)

// The graph blob ("x/graph") holds every page and every edge of a
// generation, with the page text ("x/text", pagetext.go) that the ranking
// index shares; a reader decodes both whole (moby: 29k pages, 137k edges).
// What a page record of x/text holds (ID, path, name, title, qualified
// name, line, the doc's first line) is not repeated here: x/graph adds the
// rest. It is columnar — each field of every page in a section of its own,
// then the edges' fields likewise — which zstd compresses ~10% smaller
// than page-by-page rows. Edges are sorted by (From, Type, To); a page's
// edges of one type are delta-coded from each other, and the first of them
// from the page (contains) or from the first of the page before that had
// edges of the type (references, imports: neighbours reference alike). A
// references edge's attribute (EdgeAttr) is one byte of a section of its own.

// graphFormat is the version of this encoding, bumped with FormatVersion
// (5: the graph unchanged, the n/ and d/ keys beside it not): a reader of
// an index written by another version is told to rebuild it.
const graphFormat = 5

// Doc modes: how a page's doc is rebuilt from its snippet (the record's
// first line of it): prefix + core + rest, where core is the snippet, or
// the snippet without the "…" FirstLine adds when it cuts a line.
const (
	docSnippet     = iota // doc = core + rest, core the snippet
	docCut                // doc = core + rest, core the snippet without "…"
	docPrefixed           // doc = prefix + snippet + rest
	docPrefixedCut        // doc = prefix + snippet without "…" + rest
	docWhole              // the doc is stored whole
)

// page flags in the kind section
const (
	pageTest     = 1 << iota
	pageNegLine  // Line is negative and stored (records store max(0, Line))
	pageLocal    // Page.Local
	pageFlagBits = iota
)

// section is one column being written.
type section struct{ enc }

// encodeGraph encodes g, and returns where each section starts (for
// compressParts).
func encodeGraph(g *Graph, group []uint32) ([]byte, []int) {
	n := len(g.Pages)
	var kind, grp, sym, lang, lines, docMode, docPre, docRest, hash, body section
	kind.b = make([]byte, 0, n)
	grp.b = make([]byte, 0, n)
	sym.b = make([]byte, 0, n)
	lang.b = make([]byte, 0, n)
	lines.b = make([]byte, 0, 2*n)
	docMode.b = make([]byte, 0, n)
	docRest.b = make([]byte, 0, 32*n)
	hash.b = make([]byte, 0, 4*n)
	body.b = make([]byte, 0, 4*n)
	var kinds strTable
	for i := range g.Pages {
		p := &g.Pages[i]
		f := uint64(p.Kind) << pageFlagBits
		if p.Test {
			f |= pageTest
		}
		if p.Line < 0 {
			f |= pageNegLine
		}
		if p.Local {
			f |= pageLocal
		}
		kind.uint(f)
		grp.int(i - int(group[i]))
		sym.uint(kinds.id(p.SymKind))
		lang.uint(kinds.id(p.Lang))
		if p.Line < 0 {
			lines.int(p.Line)
		}
		lines.int(p.EndLine - p.Line)
		mode, pre, rest := splitDoc(p.Doc)
		docMode.uint(mode)
		if mode == docPrefixed || mode == docPrefixedCut {
			docPre.str(pre)
		}
		docRest.str(rest)
		hash.b = binary.LittleEndian.AppendUint32(hash.b, p.Hash)
		body.b = binary.LittleEndian.AppendUint32(body.b, p.BodyHash)
	}
	var from, typ, toRun, toCont, toFirst, attr section
	out := g.out
	from.b = make([]byte, 0, len(out))
	typ.b = make([]byte, 0, len(out))
	toRun.b = make([]byte, 0, 2*len(out))
	var last Edge
	var first [numEdgeTypes]int // the target of the last run's first edge, by type
	for i, ed := range out {
		from.uint(uint64(ed.From - last.From))
		typ.uint(uint64(ed.Type))
		if ed.Type == References {
			attr.b = append(attr.b, byte(ed.Attr))
		}
		switch {
		case i > 0 && ed.From == last.From && ed.Type == last.Type:
			toRun.uint(uint64(ed.To - last.To - 1)) // sorted and distinct
		case ed.Type == Contains:
			toCont.int(int(ed.To) - int(ed.From))
		default:
			toFirst.int(int(ed.To) - first[ed.Type])
			first[ed.Type] = int(ed.To)
		}
		last = ed
	}
	secs := []*section{&kind, &grp, &sym, &lang, &lines, &docMode, &docPre, &docRest, &hash, &body, &from, &typ, &toRun, &toCont, &toFirst, &attr}
	size := 32
	for _, s := range secs {
		size += len(s.b) + 5
	}
	e := enc{b: make([]byte, 0, size)}
	e.uint(graphFormat)
	e.uint(uint64(n))
	e.uint(uint64(len(out)))
	e.strs(kinds.strs)
	cuts := make([]int, 0, len(secs))
	for _, s := range secs {
		cuts = append(cuts, len(e.b))
		e.uint(uint64(len(s.b)))
		e.b = append(e.b, s.b...)
	}
	return e.b, cuts
}

// splitDoc splits a doc around its snippet (FirstLine(doc,
// SnippetMaxBytes)), which the page-text record holds.
func splitDoc(doc string) (mode uint64, prefix, rest string) {
	snip := FirstLine(doc, SnippetMaxBytes)
	core, cut := snip, false
	p := strings.Index(doc, core)
	if p < 0 {
		core, cut = strings.TrimSuffix(snip, "…"), true
		if len(core) == len(snip) {
			return docWhole, "", doc
		}
		if p = strings.Index(doc, core); p < 0 {
			return docWhole, "", doc
		}
	}
	mode = docSnippet
	if p > 0 {
		mode = docPrefixed
	}
	if cut {
		mode++
	}
	return mode, doc[:p], doc[p+len(core):]
}

func joinDoc(mode uint64, prefix, snip, rest string) string {
	core := snip
	if mode == docCut || mode == docPrefixedCut {
		core = strings.TrimSuffix(snip, "…")
	}
	switch {
	case mode == docWhole:
		return rest
	case rest == "" && prefix == "":
		return core
	}
	return prefix + core + rest
}

// checkGraphFormat checks that b is a graph blob of this version.
func checkGraphFormat(b []byte) error {
	d := dec{b: b}
	if v := d.uint(); v != graphFormat {
		return fmt.Errorf("graph format %d, want %d: rebuild with `wikitoolkit build --full`", v, graphFormat)
	}
	return nil
}

func decodeGraph(b, text []byte) (*Graph, error) {
	if err := checkGraphFormat(b); err != nil {
		return nil, err
	}
	d := dec{b: b}
	d.uint()
	n := d.count()
	m := int(d.uint())
	strs := d.strs()
	var kind, grp, sym, lang, lines, docMode, docPre, docRest, hash, body, from, typ, toRun, toCont, toFirst, attr dec
	secs := []*dec{&kind, &grp, &sym, &lang, &lines, &docMode, &docPre, &docRest, &hash, &body, &from, &typ, &toRun, &toCont, &toFirst, &attr}
	for _, s := range secs {
		l := d.count()
		if d.err != nil {
			break
		}
		s.b, d.b = d.b[:l], d.b[l:]
	}
	if d.err != nil || len(d.b) != 0 || m > len(from.b) {
		return nil, fmt.Errorf("decode graph: %w", errCorrupt)
	}
	off, rec, err := DecodeText(text)
	if err != nil {
		return nil, err
	}
	if len(off) != n+1 {
		return nil, fmt.Errorf("decode graph: %d page records for %d pages", len(off)-1, n)
	}
	// One copy of the records holds all their strings: the pages must not
	// alias the decompressed blob, which the caller may reuse.
	recs := string(rec)
	view := unsafe.Slice(unsafe.StringData(recs), len(recs)) // read only
	pages := make([]Page, n)
	group := make([]uint32, n)
	snips := make([]string, n)
	flags := make([]uint64, n)
	bad := false
	for i := range pages {
		p := &pages[i]
		t, ok := readText(view[off[i]:off[i+1]])
		if !ok {
			bad = true
			break
		}
		kf := kind.uint()
		p.Kind = Kind(kf >> pageFlagBits)
		p.Test, p.Local = kf&pageTest != 0, kf&pageLocal != 0
		g := i - grp.int()
		if g < 0 || g >= n || p.Kind >= numKinds {
			bad = true
			break
		}
		group[i] = uint32(g)
		flags[i] = t.flags
		p.Path, p.Name, p.Title, p.ID, p.Qualified = t.path, t.name, t.title, t.id, t.qual
		snips[i] = t.snippet
		p.Line = t.line
		if kf&pageNegLine != 0 {
			p.Line = lines.int()
		}
		p.EndLine = p.Line + lines.int()
		si, li := sym.uint(), lang.uint()
		if si >= uint64(len(strs)) || li >= uint64(len(strs)) {
			bad = true
			break
		}
		p.SymKind, p.Lang = strs[si], strs[li]
		hb, bb := hash.take4(), body.take4()
		p.Hash, p.BodyHash = hb, bb
	}
	if !bad {
		for i := range pages {
			p := &pages[i]
			if flags[i]&TextPath == 0 {
				if flags[group[i]]&TextPath == 0 || group[i] == uint32(i) {
					bad = true
					break
				}
				p.Path = pages[group[i]].Path
			}
			if flags[i]&TextName == 0 {
				p.Name = DefaultName(p.Kind, p.Path, p.Qualified)
			}
			if flags[i]&TextTitleMark != 0 {
				p.Title = UnmarkName(p.Title, p.Name)
			}
			if flags[i]&TextSnippetMark != 0 {
				snips[i] = UnmarkName(snips[i], p.Name)
			}
			switch {
			case flags[i]&TextTitle != 0:
			case flags[i]&TextTitleName != 0:
				p.Title = p.Name
			default:
				p.Title = p.Path
			}
			if flags[i]&TextID == 0 {
				p.ID = DefaultID(p.Kind, p.Path, p.Name, p.Qualified)
			}
			mode := docMode.uint()
			var pre string
			if mode == docPrefixed || mode == docPrefixedCut {
				pre = docPre.str()
			}
			if mode > docWhole {
				bad = true
				break
			}
			p.Doc = joinDoc(mode, pre, snips[i], docRest.str())
		}
	}
	edges := make([]Edge, m)
	var ed edgeDec
	ec := edgeCols{&from, &typ, &toRun, &toCont, &toFirst, &attr}
	for i := range edges {
		if !ed.next(ec, i, n) {
			bad = true
			break
		}
		edges[i] = ed.last
	}
	for _, s := range secs {
		if s.err != nil || len(s.b) != 0 {
			bad = true
		}
	}
	if bad {
		return nil, fmt.Errorf("decode graph: %w", errCorrupt)
	}
	return NewGraph(pages, edges), nil
}

// edgeCols are the columns a graph blob's edges are decoded from.
type edgeCols struct{ from, typ, toRun, toCont, toFirst, attr *dec }

// edgeDec decodes a graph blob's edges, each from the one before: the
// last decoded, and the first target of each type so far, which the next
// edge of another page is delta-coded from.
type edgeDec struct {
	last  Edge
	first [numEdgeTypes]int
}

// next decodes edge i (of a graph of n pages) into d.last; false when the
// columns are corrupt.
func (d *edgeDec) next(c edgeCols, i, n int) bool {
	f := d.last.From + uint32(c.from.uint())
	t := EdgeType(c.typ.uint())
	if t >= numEdgeTypes {
		return false
	}
	var tt int
	switch {
	case i > 0 && f == d.last.From && t == d.last.Type:
		tt = int(d.last.To) + 1 + int(c.toRun.uint())
	case t == Contains:
		tt = int(f) + c.toCont.int()
	default:
		tt = d.first[t] + c.toFirst.int()
		d.first[t] = tt
	}
	if tt < 0 || tt >= n || int(f) >= n {
		return false
	}
	d.last = Edge{From: f, To: uint32(tt), Type: t}
	if t == References {
		if len(c.attr.b) == 0 {
			return false
		}
		d.last.Attr, c.attr.b = EdgeAttr(c.attr.b[0]), c.attr.b[1:]
	}
	return true
}

func (d *dec) take4() uint32 {
	if len(d.b) < 4 {
		d.fail()
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}
