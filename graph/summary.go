package graph

import "strings"

// fileSummary is what a build must know of a stored file without decoding
// its segment (key d/PATH): what the file adds to the generation's counts
// and the definitions it gives the World.
type fileSummary struct {
	Lang     string
	Size     int64
	Diags    int
	Pages    [numKinds]int
	Edges    [numEdgeTypes]int // loose references not included
	Loose    int               // loose references (EdgeAttr.Loose)
	Defs     []defName
	Resolved bool // decoded
}

type defName struct{ Name, Qualified string }

// LooseEdges is the key of BuildInfo.Edges counting loose references,
// which "references" leaves out.
const LooseEdges = "loose_references"

// summarize returns the summary of a piece and its record.
func summarize(pc *segPiece, rec *FileRecord) fileSummary {
	s := fileSummary{Resolved: true}
	if rec != nil {
		s.Lang, s.Size = rec.Lang, rec.Size
		if rec.Facts != nil {
			s.Diags = len(rec.Facts.Diagnostics)
		}
	}
	own := pc.Pages[0].ID
	for i := range pc.Pages {
		p := &pc.Pages[i]
		if p.Kind < numKinds {
			s.Pages[p.Kind]++
		}
		if p.Kind == KindSymbol && p.Name != "" {
			s.Defs = append(s.Defs, defName{p.Name, p.Qualified})
		}
	}
	for _, e := range pc.Edges {
		if e.From != FromModule && e.To == pc.Pages[e.From].ID {
			continue
		}
		if e.From == FromModule && e.To != own {
			continue
		}
		switch {
		case e.Attr.Loose():
			s.Loose++
		case int(e.Type) < len(s.Edges):
			s.Edges[e.Type]++
		}
	}
	return s
}

func encodeSummary(s fileSummary, langs *strTable) []byte {
	e := enc{}
	e.uint(langs.id(s.Lang))
	e.uint(uint64(s.Size))
	e.uint(uint64(s.Diags))
	for _, n := range s.Pages {
		e.uint(uint64(n))
	}
	for _, n := range s.Edges {
		e.uint(uint64(n))
	}
	e.uint(uint64(s.Loose))
	e.uint(uint64(len(s.Defs)))
	// Each qualified name front-coded against the one before (a file's
	// definitions come in source order, members after their parent), and
	// the name as the length of the qualified name's suffix it is, + 1
	// (0: the name follows).
	prev := ""
	for _, d := range s.Defs {
		e.frontStr(prev, d.Qualified)
		if strings.HasSuffix(d.Qualified, d.Name) {
			e.uint(uint64(len(d.Name)) + 1)
		} else {
			e.uint(0)
			e.str(d.Name)
		}
		prev = d.Qualified
	}
	return e.b
}

func decodeSummary(b []byte, langs []string) (fileSummary, bool) {
	d := dec{b: b}
	var s fileSummary
	l := d.uint()
	if l >= uint64(len(langs)) {
		return s, false
	}
	s.Lang = langs[l]
	s.Size = int64(d.uint())
	s.Diags = int(d.uint())
	for i := range s.Pages {
		s.Pages[i] = int(d.uint())
	}
	for i := range s.Edges {
		s.Edges[i] = int(d.uint())
	}
	s.Loose = int(d.uint())
	n := d.count()
	if n > 0 {
		s.Defs = make([]defName, 0, n)
	}
	quals := frontStrs{chunk: 512} // a summary is decoded alone
	for range n {
		q := quals.next(&d)
		name := ""
		switch k := d.uint(); {
		case k == 0:
			name = d.str()
		case k-1 <= uint64(len(q)):
			name = q[len(q)-int(k-1):]
		default:
			d.fail()
		}
		if d.err != nil {
			break
		}
		s.Defs = append(s.Defs, defName{name, q})
	}
	s.Resolved = d.err == nil
	return s, d.err == nil
}

// fillInfo sets the counts of a full build's info from its module piece
// and the files' summaries.
func fillInfo(info *BuildInfo, mods Piece, sums []fileSummary, _, _ []fileSummary) {
	info.Pages = map[string]int{}
	for _, k := range Kinds() {
		info.Pages[k.String()] = 0
	}
	info.Edges = map[string]int{"contains": 0, "references": 0, "imports": 0, LooseEdges: 0}
	info.Languages = map[string]int{}
	info.Files, info.SourceBytes, info.Diagnostics = 0, 0, 0
	fillInfoDelta(info, Piece{}, mods, sums, nil)
}

// fillInfoDelta moves info's counts from the module piece was to now, and
// adds the summaries add and takes away the summaries lost.
func fillInfoDelta(info *BuildInfo, was, now Piece, add, lost []fileSummary) {
	apply := func(s fileSummary, sign int) {
		info.Files += sign
		info.SourceBytes += int64(sign) * s.Size
		info.Diagnostics += sign * s.Diags
		info.Languages[s.Lang] += sign
		if info.Languages[s.Lang] == 0 {
			delete(info.Languages, s.Lang)
		}
		for k, n := range s.Pages {
			if n != 0 {
				info.Pages[Kind(k).String()] += sign * n
			}
		}
		for t, n := range s.Edges {
			if n != 0 {
				info.Edges[EdgeType(t).String()] += sign * n
			}
		}
		if s.Loose != 0 {
			info.Edges[LooseEdges] += sign * s.Loose
		}
	}
	for _, s := range lost {
		apply(s, -1)
	}
	for _, s := range add {
		apply(s, 1)
	}
	info.Pages[KindModule.String()] += len(now.Pages) - len(was.Pages)
	info.Edges[Contains.String()] += len(now.Edges) - len(was.Edges)
}
