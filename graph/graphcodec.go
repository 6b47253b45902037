package graph

import (
	"fmt"
	"strings"
)

// The graph blob ("x/graph") holds every page and every edge of a
// generation; a reader decodes it whole (moby: 29k pages, 137k edges,
// 0.9 MB compressed, decoded in tens of milliseconds). Page IDs and paths
// are front-coded against the previous page, which shares them most of the
// time; edges are sorted by (From, Type, To) and delta-coded.

const graphFormat = 2

func encodeGraph(g *Graph) []byte {
	e := enc{b: make([]byte, 0, 64*len(g.Pages)+4*len(g.out))}
	e.uint(graphFormat)
	e.uint(uint64(len(g.Pages)))
	prevID, prevPath := "", ""
	for i := range g.Pages {
		p := &g.Pages[i]
		frontCode(&e, prevID, p.ID)
		frontCode(&e, prevPath, p.Path)
		prevID, prevPath = p.ID, p.Path
		// Name and Qualified mostly repeat the ID: flag bit 1 says
		// Qualified is the ID's fragment, bit 2 that Name is its last
		// dot-separated part; only what differs is stored.
		_, frag, _ := strings.Cut(p.ID, "#")
		var flags uint64
		if p.Qualified == frag {
			flags |= 1
		}
		if p.Name == lastDot(p.Qualified) {
			flags |= 2
		}
		e.uint(uint64(p.Kind)<<2 | flags)
		e.str(p.Title)
		if flags&2 == 0 {
			e.str(p.Name)
		}
		if flags&1 == 0 {
			e.str(p.Qualified)
		}
		e.str(p.SymKind)
		e.int(p.Line)
		e.int(p.EndLine - p.Line)
		e.str(p.Lang)
		e.str(p.Doc)
		e.bool(p.Test)
		e.uint(uint64(p.Hash))
		e.uint(uint64(p.BodyHash))
	}
	e.uint(uint64(len(g.out)))
	var from uint32
	for _, ed := range g.out {
		e.uint(uint64(ed.From - from))
		from = ed.From
		e.uint(uint64(ed.Type))
		e.int(int(ed.To) - int(ed.From))
	}
	return e.b
}

func frontCode(e *enc, prev, s string) {
	n := 0
	for n < len(prev) && n < len(s) && prev[n] == s[n] {
		n++
	}
	e.uint(uint64(n))
	e.str(s[n:])
}

func frontDecode(d *dec, prev string) string {
	n := int(d.uint())
	if n > len(prev) {
		d.fail()
		return ""
	}
	return prev[:n] + d.str()
}

func decodeGraph(b []byte) (*Graph, error) {
	d := dec{b: b}
	if v := d.uint(); v != graphFormat {
		return nil, fmt.Errorf("graph format %d, want %d: rebuild with `wikitoolkit build --full`", v, graphFormat)
	}
	n := d.count()
	pages := make([]Page, n)
	prevID, prevPath := "", ""
	for i := range pages {
		p := &pages[i]
		p.ID = frontDecode(&d, prevID)
		p.Path = frontDecode(&d, prevPath)
		prevID, prevPath = p.ID, p.Path
		kf := d.uint()
		p.Kind = Kind(kf >> 2)
		p.Title = d.str()
		if kf&2 == 0 {
			p.Name = d.str()
		}
		if kf&1 == 0 {
			p.Qualified = d.str()
		} else {
			_, p.Qualified, _ = strings.Cut(p.ID, "#")
		}
		if kf&2 != 0 {
			p.Name = lastDot(p.Qualified)
		}
		p.SymKind = d.str()
		p.Line = d.int()
		p.EndLine = p.Line + d.int()
		p.Lang = d.str()
		p.Doc = d.str()
		p.Test = d.bool()
		p.Hash = uint32(d.uint())
		p.BodyHash = uint32(d.uint())
	}
	m := d.count()
	edges := make([]Edge, m)
	var from uint32
	for i := range edges {
		from += uint32(d.uint())
		t := EdgeType(d.uint())
		to := int(from) + d.int()
		if to < 0 || to >= n || int(from) >= n || t >= numEdgeTypes {
			d.fail()
			break
		}
		edges[i] = Edge{From: from, To: uint32(to), Type: t}
	}
	if d.err != nil {
		return nil, fmt.Errorf("decode graph: %w", d.err)
	}
	return NewGraph(pages, edges), nil
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}
