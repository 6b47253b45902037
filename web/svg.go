package web

import (
	"cmp"
	"fmt"
	"html/template"
	"path"
	"slices"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// The graph picture is drawn on the server as SVG, in layers: what holds
// the page (its file, its module) on top; what uses it on the left, what
// it uses on the right; what it holds below. Every node is a link.
const (
	svgWidth   = 1100
	nodeH      = 24
	nodeGap    = 8
	layerGap   = 44
	sideW      = 300
	centerW    = 300
	topW       = 280
	childW     = 260
	childCols  = 4
	charPixels = 7.3 // 12px monospace
)

// gnode is one node of the picture.
type gnode struct {
	id, label, kind string
	x, y, w         float64
}

// graphSides are the pages around the center, by layer.
type graphSides struct {
	top, left, right, bottom                 []gnode
	moreLeft, moreRight, moreBottom, moreTop int
	// The sections of the page listing what did not fit (page anchors).
	moreLeftAt, moreRightAt, moreBottomAt string
}

// neighbours collects the layers around page c, at most per pages in each.
func neighbours(g *graph.Graph, c uint32, per int) graphSides {
	var s graphSides
	seen := map[uint32]bool{c: true}
	add := func(list *[]gnode, more *int, i uint32) {
		if seen[i] {
			return
		}
		seen[i] = true
		if len(*list) >= per {
			*more++
			return
		}
		*list = append(*list, gnode{id: g.Pages[i].ID, kind: g.Pages[i].Kind.String()})
	}
	// Up to two holders: the file and module of a symbol, the module and
	// its parent of a file.
	up := c
	for range 2 {
		in := g.In(up, graph.Contains, false)
		if len(in) == 0 {
			break
		}
		up = in[0].From
		s.top = append([]gnode{{id: g.Pages[up].ID, kind: g.Pages[up].Kind.String()}}, s.top...)
		seen[up] = true
	}
	var left, right, bottom []uint32
	leftN, rightN := map[graph.EdgeType]int{}, map[graph.EdgeType]int{}
	// Loose references (matched by name only) are not drawn: the page
	// lists how many there are.
	for _, e := range g.In(c, 0, true) {
		if e.Type != graph.Contains && e.Confident() {
			left = append(left, e.From)
			leftN[e.Type]++
		}
	}
	for _, e := range g.Out(c, 0, true) {
		if e.Type == graph.Contains {
			bottom = append(bottom, e.To)
		} else if e.Confident() {
			right = append(right, e.To)
			rightN[e.Type]++
		}
	}
	// The section listing most of a side's neighbours.
	most := func(n map[graph.EdgeType]int, dir string) string {
		best := graph.References
		for t, k := range n {
			if k > n[best] || (k == n[best] && t < best) {
				best = t
			}
		}
		return best.String() + "-" + dir
	}
	s.moreLeftAt, s.moreRightAt, s.moreBottomAt = most(leftN, "in"), most(rightN, "out"), "contains-out"
	if k := g.Pages[c].Kind; k == graph.KindFile || k == graph.KindModule {
		s.moreBottomAt = "contents"
	}
	// Functions and types before fields and constants: the picture shows
	// what calls and what is called first.
	byRank := func(a, b uint32) int { return cmp.Compare(drawRank(&g.Pages[a]), drawRank(&g.Pages[b])) }
	slices.SortStableFunc(left, byRank)
	slices.SortStableFunc(right, byRank)
	for _, i := range left {
		add(&s.left, &s.moreLeft, i)
	}
	for _, i := range right {
		add(&s.right, &s.moreRight, i)
	}
	for _, i := range bottom {
		add(&s.bottom, &s.moreBottom, i)
	}
	return s
}

// drawRank orders neighbours in the picture: callables, then types, then
// files and modules, then the rest (fields, constants, variables).
func drawRank(p *graph.Page) int {
	switch p.Kind {
	case graph.KindSymbol:
		switch p.SymKind {
		case "func", "function", "method", "constructor", "macro":
			return 0
		case "type", "struct", "class", "interface", "trait", "enum", "module", "namespace":
			return 1
		}
		return 3
	case graph.KindFile, graph.KindModule:
		return 2
	}
	return 4
}

// drawGraph returns the SVG picture of the graph around page id (a memory:
// its linked page), big for the graph page. Nodes link by l.
func drawGraph(g *graph.Graph, pl *annotate.Placement, id string, l links, big bool) template.HTML {
	c, ok := g.Lookup(id)
	if !ok {
		return ""
	}
	per, perChild := 8, 8
	if big {
		per, perChild = 20, 40
	}
	s := neighbours(g, c, per)
	if len(s.bottom) > perChild {
		s.moreBottom += len(s.bottom) - perChild
		s.bottom = s.bottom[:perChild]
	}
	if len(s.top)+len(s.left)+len(s.right)+len(s.bottom) == 0 {
		return ""
	}
	for _, side := range [][]gnode{s.left, s.right, s.bottom} {
		markTwins(g, pl, l, side)
	}
	var b strings.Builder
	y0 := 10.0
	// Top layer, centred.
	if n := len(s.top); n > 0 {
		x := (svgWidth - (float64(n)*topW + float64(n-1)*48)) / 2
		for i := range s.top {
			s.top[i].x, s.top[i].y, s.top[i].w = x, y0, topW
			x += topW + 48
		}
		y0 += nodeH + layerGap
	}
	rows := max(len(s.left)+sign(s.moreLeft), len(s.right)+sign(s.moreRight), 1)
	sideH := float64(rows)*(nodeH+nodeGap) - nodeGap
	for i := range s.left {
		s.left[i].x, s.left[i].y, s.left[i].w = 8, y0+float64(i)*(nodeH+nodeGap), sideW
	}
	for i := range s.right {
		s.right[i].x, s.right[i].y, s.right[i].w = svgWidth-8-sideW, y0+float64(i)*(nodeH+nodeGap), sideW
	}
	center := gnode{id: id, kind: "center", x: (svgWidth - centerW) / 2, y: y0 + sideH/2 - nodeH/2, w: centerW}
	y1 := y0 + max(sideH, nodeH) + layerGap
	gridW := float64(childCols)*childW + float64(childCols-1)*12
	for i := range s.bottom {
		col, row := i%childCols, i/childCols
		s.bottom[i].x = (svgWidth-gridW)/2 + float64(col)*(childW+12)
		s.bottom[i].y = y1 + float64(row)*(nodeH+nodeGap)
		s.bottom[i].w = childW
	}
	height := y0 + sideH + 10
	if n := len(s.bottom) + sign(s.moreBottom); n > 0 {
		height = y1 + float64((n+childCols-1)/childCols)*(nodeH+nodeGap) + 6
	}
	fmt.Fprintf(&b, `<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %.0f" width="%d" height="%.0f" role="img" aria-label="graph around %s">`,
		svgWidth, height, svgWidth, height, template.HTMLEscapeString(id))
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead"/></marker></defs>`)
	// Edges first, under the nodes.
	// The holders form a chain (module, file, page): each holds the next.
	for i, n := range s.top {
		if i+1 < len(s.top) {
			edge(&b, n.x+n.w, n.y+nodeH/2, s.top[i+1].x, n.y+nodeH/2, "contains", false)
		} else {
			edge(&b, n.x+n.w/2, n.y+nodeH, center.x+center.w/2, center.y, "contains", true)
		}
	}
	for _, n := range s.left {
		edge(&b, n.x+n.w, n.y+nodeH/2, center.x, center.y+nodeH/2, "uses", false)
	}
	for _, n := range s.right {
		edge(&b, center.x+center.w, center.y+nodeH/2, n.x, n.y+nodeH/2, "uses", false)
	}
	for _, n := range s.bottom {
		edge(&b, center.x+center.w/2, center.y+nodeH, n.x+n.w/2, n.y, "contains", true)
	}
	for _, n := range s.top {
		node(&b, g, pl, n, l)
	}
	for _, n := range s.left {
		node(&b, g, pl, n, l)
	}
	for _, n := range s.right {
		node(&b, g, pl, n, l)
	}
	for _, n := range s.bottom {
		node(&b, g, pl, n, l)
	}
	node(&b, g, pl, center, l)
	// "… N more" links to the page's list of them.
	page := l.page(id)
	more := func(n int, x, y float64, section string) {
		if n > 0 {
			fmt.Fprintf(&b, `<a href="%s#%s"><text class="more" x="%.0f" y="%.0f">… %d more</text></a>`, template.HTMLEscapeString(page), section, x+8, y+16, n)
		}
	}
	more(s.moreLeft, 8, y0+float64(len(s.left))*(nodeH+nodeGap), s.moreLeftAt)
	more(s.moreRight, svgWidth-8-sideW, y0+float64(len(s.right))*(nodeH+nodeGap), s.moreRightAt)
	if s.moreBottom > 0 {
		i := len(s.bottom)
		more(s.moreBottom, (svgWidth-gridW)/2+float64(i%childCols)*(childW+12), y1+float64(i/childCols)*(nodeH+nodeGap), s.moreBottomAt)
	}
	if len(s.left) > 0 {
		fmt.Fprintf(&b, `<text class="legend" x="8" y="%.0f">used by</text>`, y0-6)
	}
	if len(s.right) > 0 {
		fmt.Fprintf(&b, `<text class="legend" x="%d" y="%.0f">uses</text>`, svgWidth-8-sideW, y0-6)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text is escaped above
}

func sign(n int) int {
	if n > 0 {
		return 1
	}
	return 0
}

// edge draws a curve from (x1,y1) to (x2,y2) with an arrow at its end;
// vertical curves bend up and down, horizontal ones sideways.
func edge(b *strings.Builder, x1, y1, x2, y2 float64, class string, vertical bool) {
	if vertical {
		m := (y1 + y2) / 2
		fmt.Fprintf(b, `<path class="edge %s" d="M%.0f %.0fC%.0f %.0f %.0f %.0f %.0f %.0f" marker-end="url(#arrow)"/>`, class, x1, y1, x1, m, x2, m, x2, y2)
		return
	}
	m := (x1 + x2) / 2
	fmt.Fprintf(b, `<path class="edge %s" d="M%.0f %.0fC%.0f %.0f %.0f %.0f %.0f %.0f" marker-end="url(#arrow)"/>`, class, x1, y1, m, y1, m, y2, x2, y2)
}

// node draws one linked box with its page's short name.
func node(b *strings.Builder, g *graph.Graph, pl *annotate.Placement, n gnode, l links) {
	it := describe(g, pl, n.id, l)
	kind, name := "", it.Text
	if n.label != "" {
		name = n.label
	}
	if n.kind != "center" && n.kind != "module" && n.kind != "file" && it.Kind != "" {
		kind = it.Kind + " "
	}
	// The kind stays whole; a long name loses its head (the tail of a
	// qualified name or a path says more).
	maxChars := int((n.w-16)/charPixels) - len([]rune(kind))
	if r := []rune(name); len(r) > maxChars && maxChars > 1 {
		name = "…" + string(r[len(r)-maxChars+1:])
	}
	fmt.Fprintf(b, `<a href="%s"><g class="node n-%s"><title>%s</title><rect x="%.0f" y="%.0f" width="%.0f" height="%d" rx="4"/><text x="%.0f" y="%.0f">`,
		template.HTMLEscapeString(it.Href), n.kind, template.HTMLEscapeString(n.id), n.x, n.y, n.w, nodeH, n.x+8, n.y+16)
	if kind != "" {
		fmt.Fprintf(b, `<tspan class="k">%s</tspan>`, template.HTMLEscapeString(kind))
	}
	fmt.Fprintf(b, `%s</text></g></a>`, template.HTMLEscapeString(name))
}

// markTwins labels the nodes of one side whose text another node there
// shares (one function per platform file) with their file's name too.
func markTwins(g *graph.Graph, pl *annotate.Placement, l links, side []gnode) {
	count := map[string]int{}
	texts := make([]string, len(side))
	for i := range side {
		texts[i] = describe(g, pl, side[i].id, l).Text
		count[texts[i]]++
	}
	for i := range side {
		if count[texts[i]] < 2 {
			continue
		}
		if p, ok := g.Lookup(side[i].id); ok && g.Pages[p].Path != "" {
			side[i].label = texts[i] + " · " + path.Base(g.Pages[p].Path)
		}
	}
}
