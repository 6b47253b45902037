package graph

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// segCodec reads a segment's pages a file at a time (page views, view.go)
// from its graph blob and page text, decompressed: decodeGraph makes every
// page and both edge indexes of a segment (at 100k files 20 ms and 8 MB
// for one of 17.6k pages), where a page view wants a few files of it.
//
// One pass over the columns (newSegCodec, no page made) checks them as
// decodeGraph does and records each page's kind and group page, and,
// every codecStride pages, where each column's cursor stands and the
// edge decoder's state (the last edge, and the first target of each type,
// from which edges are delta-coded); a range of pages is then decoded
// from the checkpoint before it (pages, edges), and a page's ID alone from
// its page-text record (id). The blobs stay, about a third of the decoded
// graph's bytes. TestSegCodecEqualsDecode holds every page, edge and ID
// to decodeGraph's.

// codecStride is how many pages apart a segCodec's checkpoints are.
var codecStride = 256

// The columns of a graph blob, in their order (encodeGraph).
const (
	colKind = iota
	colGrp
	colSym
	colLang
	colLines
	colDocMode
	colDocPre
	colDocRest
	colHash
	colBody
	colFrom
	colTyp
	colToRun
	colToCont
	colToFirst
	colAttr
	numCols
)

type segCodec struct {
	n, m  int
	strs  []string
	cols  [numCols][]byte
	off   []uint32 // page text offsets
	recs  string   // the page text records (a copy: pages alias it)
	kf    []uint8  // each page's kind and flags (kind section)
	group []uint32 // each page's group page
	files []uint32 // the file pages, ascending
	ck    []codecCk
}

// codecCk is where the decoders stand at page k·codecStride.
type codecCk struct {
	at   [numCols]uint32 // bytes read of each column
	edge int             // edges before it (From below its page)
	ed   edgeDec         // the edge decoder's state before that edge
}

// newSegCodec checks the graph blob b and page text text and indexes them
// (see above).
func newSegCodec(b, text []byte) (*segCodec, error) {
	if err := checkGraphFormat(b); err != nil {
		return nil, err
	}
	d := dec{b: b}
	d.uint()
	c := &segCodec{}
	c.n = d.count()
	c.m = int(d.uint())
	c.strs = d.strs()
	for k := range c.cols {
		l := d.count()
		if d.err != nil {
			break
		}
		c.cols[k], d.b = d.b[:l], d.b[l:]
	}
	if d.err != nil || len(d.b) != 0 || c.m > len(c.cols[colFrom]) {
		return nil, fmt.Errorf("decode graph: %w", errCorrupt)
	}
	off, rec, err := DecodeText(text)
	if err != nil {
		return nil, err
	}
	if len(off) != c.n+1 {
		return nil, fmt.Errorf("decode graph: %d page records for %d pages", len(off)-1, c.n)
	}
	c.off = off
	c.recs = string(rec)
	view := unsafe.Slice(unsafe.StringData(c.recs), len(c.recs))
	var cur [numCols]dec
	for k := range cur {
		cur[k].b = c.cols[k]
	}
	at := func() (a [numCols]uint32) {
		for k := range cur {
			a[k] = uint32(len(c.cols[k]) - len(cur[k].b))
		}
		return a
	}
	n := c.n
	c.kf = make([]uint8, n)
	c.group = make([]uint32, n)
	c.ck = make([]codecCk, (n+codecStride-1)/codecStride+1)
	flags := make([]uint64, n)
	bad := false
	for i := 0; i < n && !bad; i++ {
		if i%codecStride == 0 {
			c.ck[i/codecStride].at = at()
		}
		// The record's flags alone (the segment's seal vouches for the
		// rest; a record read later is bounds-checked).
		r := textReader{b: view[off[i]:off[i+1]]}
		fl := r.uint()
		kf := cur[colKind].uint()
		g := i - cur[colGrp].int()
		if r.bad || g < 0 || g >= n || Kind(kf>>pageFlagBits) >= numKinds || kf >= 1<<8 {
			bad = true
			break
		}
		c.kf[i], c.group[i], flags[i] = uint8(kf), uint32(g), fl
		if Kind(kf>>pageFlagBits) == KindFile {
			c.files = append(c.files, uint32(i))
		}
		if kf&pageNegLine != 0 {
			cur[colLines].int()
		}
		cur[colLines].int()
		if si, li := cur[colSym].uint(), cur[colLang].uint(); si >= uint64(len(c.strs)) || li >= uint64(len(c.strs)) {
			bad = true
		}
		cur[colHash].take4()
		cur[colBody].take4()
	}
	// The second pass of decodeGraph: its checks, and the docs' cursors.
	for i := 0; i < n && !bad; i++ {
		if i%codecStride == 0 {
			a := at()
			for _, k := range []int{colDocMode, colDocPre, colDocRest} {
				c.ck[i/codecStride].at[k] = a[k]
			}
		}
		if flags[i]&TextPath == 0 && (flags[c.group[i]]&TextPath == 0 || c.group[i] == uint32(i)) {
			bad = true
			break
		}
		mode := cur[colDocMode].uint()
		if mode == docPrefixed || mode == docPrefixedCut {
			cur[colDocPre].skip()
		}
		if mode > docWhole {
			bad = true
			break
		}
		cur[colDocRest].skip()
	}
	// The edges, and the decoder's state at each checkpoint's first page:
	// before the first edge from it or a later page.
	var ed edgeDec
	ec := edgeCols{&cur[colFrom], &cur[colTyp], &cur[colToRun], &cur[colToCont], &cur[colToFirst], &cur[colAttr]}
	nextCk := 0
	mark := func(upTo uint32, i int) { // the checkpoints whose first page is at most upTo
		for nextCk < len(c.ck) && uint32(nextCk*codecStride) <= upTo {
			k := &c.ck[nextCk]
			a := at()
			for _, col := range []int{colFrom, colTyp, colToRun, colToCont, colToFirst, colAttr} {
				k.at[col] = a[col]
			}
			k.edge, k.ed = i, ed
			nextCk++
		}
	}
	for i := 0; i < c.m && !bad; i++ {
		// The edge's From, read ahead: the checkpoints up to it take the
		// state before the edge.
		ahead := cur[colFrom]
		if f := ed.last.From + uint32(ahead.uint()); f > ed.last.From || i == 0 {
			mark(f, i)
		}
		bad = !ed.next(ec, i, n)
	}
	mark(^uint32(0), c.m)
	for k := range cur {
		if cur[k].err != nil || len(cur[k].b) != 0 {
			bad = true
		}
	}
	if bad {
		return nil, fmt.Errorf("decode graph: %w", errCorrupt)
	}
	return c, nil
}

// text returns page i's page-text record.
func (c *segCodec) text(i int) pageText {
	t, _ := readText(unsafe.Slice(unsafe.StringData(c.recs[c.off[i]:]), c.off[i+1]-c.off[i]))
	return t
}

// kind is page i's kind.
func (c *segCodec) kind(i int) Kind { return Kind(c.kf[i] >> pageFlagBits) }

// names returns page i's path, name and qualified name as the page has them.
func (c *segCodec) names(i int, t *pageText) (path, name string) {
	path = t.path
	if t.flags&TextPath == 0 {
		path = c.text(int(c.group[i])).path
	}
	name = t.name
	if t.flags&TextName == 0 {
		name = DefaultName(c.kind(i), path, t.qual)
	}
	return path, name
}

// id returns page i's ID.
func (c *segCodec) id(i int) string {
	t := c.text(i)
	if t.flags&TextID != 0 {
		return t.id
	}
	path, name := c.names(i, &t)
	return DefaultID(c.kind(i), path, name, t.qual)
}

// path returns page i's path.
func (c *segCodec) path(i int) string {
	t := c.text(i)
	p, _ := c.names(i, &t)
	return p
}

// fileOf returns the file page whose file holds page i, -1 for none.
func (c *segCodec) fileOf(i int) int {
	k, found := slices.BinarySearch(c.files, uint32(i))
	if !found {
		k--
	}
	if k < 0 {
		return -1
	}
	return int(c.files[k])
}

// fileRange returns the pages [lo, hi) of the file at path p: its file page
// and its definitions, ok false when the segment holds no such file.
func (c *segCodec) fileRange(p string) (lo, hi int, ok bool) {
	k, found := slices.BinarySearchFunc(c.files, p, func(f uint32, p string) int { return strings.Compare(c.path(int(f)), p) })
	if !found {
		return 0, 0, false
	}
	lo, hi = int(c.files[k]), c.n
	if k+1 < len(c.files) {
		hi = int(c.files[k+1])
	}
	return lo, hi, true
}

// seek returns the column cursors standing at page lo (the page columns,
// from the checkpoint before it).
func (c *segCodec) seek(lo int) [numCols]dec {
	k := &c.ck[lo/codecStride]
	var cur [numCols]dec
	for col := range cur {
		cur[col].b = c.cols[col][k.at[col]:]
	}
	for i := lo / codecStride * codecStride; i < lo; i++ {
		kf := cur[colKind].uint()
		cur[colGrp].int()
		if kf&pageNegLine != 0 {
			cur[colLines].int()
		}
		cur[colLines].int()
		cur[colSym].uint()
		cur[colLang].uint()
		cur[colHash].take4()
		cur[colBody].take4()
		mode := cur[colDocMode].uint()
		if mode == docPrefixed || mode == docPrefixedCut {
			cur[colDocPre].skip()
		}
		cur[colDocRest].skip()
	}
	return cur
}

// pages returns pages [lo, hi) as decodeGraph makes them.
func (c *segCodec) pages(lo, hi int) []Page {
	cur := c.seek(lo)
	out := make([]Page, hi-lo)
	for i := lo; i < hi; i++ {
		p := &out[i-lo]
		t := c.text(i)
		kf := cur[colKind].uint()
		cur[colGrp].int()
		p.Kind = Kind(kf >> pageFlagBits)
		p.Test, p.Local = kf&pageTest != 0, kf&pageLocal != 0
		p.Line = t.line
		if kf&pageNegLine != 0 {
			p.Line = cur[colLines].int()
		}
		p.EndLine = p.Line + cur[colLines].int()
		p.SymKind, p.Lang = c.strs[cur[colSym].uint()], c.strs[cur[colLang].uint()]
		p.Hash, p.BodyHash = cur[colHash].take4(), cur[colBody].take4()
		p.Path, p.Name = c.names(i, &t)
		p.Qualified, p.Title, p.ID = t.qual, t.title, t.id
		snip := t.snippet
		if t.flags&TextTitleMark != 0 {
			p.Title = UnmarkName(p.Title, p.Name)
		}
		if t.flags&TextSnippetMark != 0 {
			snip = UnmarkName(snip, p.Name)
		}
		switch {
		case t.flags&TextTitle != 0:
		case t.flags&TextTitleName != 0:
			p.Title = p.Name
		default:
			p.Title = p.Path
		}
		if t.flags&TextID == 0 {
			p.ID = DefaultID(p.Kind, p.Path, p.Name, p.Qualified)
		}
		mode := cur[colDocMode].uint()
		var pre string
		if mode == docPrefixed || mode == docPrefixedCut {
			pre = cur[colDocPre].str()
		}
		p.Doc = joinDoc(mode, pre, snip, cur[colDocRest].str())
	}
	return out
}

// edges calls fn with each edge whose From is in [lo, hi), in the blob's
// order (From, Type, To).
func (c *segCodec) edges(lo, hi int, fn func(Edge)) {
	k := &c.ck[lo/codecStride]
	var cur [numCols]dec
	for col := range cur {
		cur[col].b = c.cols[col][k.at[col]:]
	}
	ed := k.ed
	ec := edgeCols{&cur[colFrom], &cur[colTyp], &cur[colToRun], &cur[colToCont], &cur[colToFirst], &cur[colAttr]}
	for i := k.edge; i < c.m; i++ {
		ed.next(ec, i, c.n) // checked by newSegCodec
		f := ed.last.From
		if int(f) >= hi {
			return
		}
		if int(f) >= lo {
			fn(ed.last)
		}
	}
}
