package wiki

import (
	"fmt"
	"io"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// Neighbor is one edge of a page seen from that page, with what the
// neighbour is: its kind (symbol kind for symbols), title (a symbol's
// signature) and place.
type Neighbor struct {
	ID        string `json:"id"`
	Rel       string `json:"rel"`
	Direction string `json:"direction"`
	Kind      string `json:"kind,omitempty"`
	SymKind   string `json:"symbol_kind,omitempty"`
	Title     string `json:"title,omitempty"`
	Path      string `json:"path,omitempty"`
	Line      int    `json:"line,omitempty"`
}

// RelatedView is a page's neighbours, filtered by edge type and direction.
// Total counts every neighbour known, including callers beyond the stored
// cap (graph.MaxStoredEdges) and beyond max.
type RelatedView struct {
	ID        string     `json:"id"`
	Neighbors []Neighbor `json:"neighbors"`
	Total     int        `json:"total"`
	Truncated bool       `json:"truncated,omitempty"`
}

// CheckRelArgs validates a relation filter ("" = all) and a direction ("" =
// both), returning the direction to use.
func CheckRelArgs(rel, dir string) (string, error) {
	if rel != "" {
		if _, ok := graph.ParseEdgeType(rel); !ok {
			return "", fmt.Errorf("unknown edge type %q: use contains, references, imports or relates (or leave it empty for all)", rel)
		}
	}
	switch dir {
	case "":
		return "both", nil
	case "in", "out", "both":
		return dir, nil
	}
	return "", fmt.Errorf("direction must be in (what uses or contains the page), out (what it uses or contains) or both, not %q", dir)
}

// Related lists the neighbours of p, at most max (0 = all), described from
// snap's graph and a's memories (either may be nil).
func Related(snap *graph.Snapshot, a *annotate.Annotations, p *Page, rel, dir string, max int) RelatedView {
	out := related(p, rel, dir, max)
	var g *graph.Graph
	if snap != nil {
		g, _ = snap.Graph()
	}
	for i := range out.Neighbors {
		describeNeighbor(&out.Neighbors[i], g, a)
	}
	return out
}

// describeNeighbor fills in n's kind, title and place.
func describeNeighbor(n *Neighbor, g *graph.Graph, a *annotate.Annotations) {
	kind, _, frag, err := graph.ParseID(n.ID)
	if err != nil {
		return
	}
	n.Kind = kind.String()
	if kind == graph.KindMemory {
		if a != nil {
			if m, ok := a.Memory(frag); ok {
				n.Title = m.Title
			}
		}
		return
	}
	if g == nil {
		return
	}
	i, ok := g.Lookup(n.ID)
	if !ok {
		return
	}
	pg := &g.Pages[i]
	n.SymKind, n.Path = pg.SymKind, pg.Path
	if pg.Kind != graph.KindModule {
		n.Line = pg.Line
	}
	if pg.Title != pg.Path {
		n.Title = pg.Title
	}
}

func related(p *Page, rel, dir string, max int) RelatedView {
	out := RelatedView{ID: p.ID, Neighbors: []Neighbor{}}
	for t := graph.Contains; t <= graph.Relates; t++ {
		if rel != "" && t.String() != rel {
			continue
		}
		d := p.Edges[t.String()]
		add := func(ids []string, direction string, total int) {
			out.Total += max0(total, len(ids))
			for _, id := range ids {
				if max > 0 && len(out.Neighbors) >= max {
					out.Truncated = true
					return
				}
				out.Neighbors = append(out.Neighbors, Neighbor{ID: id, Rel: t.String(), Direction: direction})
			}
		}
		if dir != "in" {
			add(d.Out, "out", len(d.Out))
		}
		if dir != "out" {
			add(d.In, "in", d.InTotal)
		}
	}
	if out.Total > len(out.Neighbors) {
		out.Truncated = true
	}
	return out
}

func max0(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Render writes the neighbours grouped by edge type and direction.
func (r *RelatedView) Render(w io.Writer, filtered bool) {
	if len(r.Neighbors) == 0 {
		suffix := ""
		if filtered {
			suffix = " of that kind"
		}
		fmt.Fprintf(w, "%s has no neighbours%s\n", r.ID, suffix)
		return
	}
	last := ""
	for _, n := range r.Neighbors {
		if h := n.Rel + " " + n.Direction; h != last {
			arrow := map[string]string{"out": "→", "in": "←"}[n.Direction]
			fmt.Fprintf(w, "%s %s\n", n.Rel, arrow)
			last = h
		}
		fmt.Fprintf(w, "  %s", n.ID)
		kind := n.SymKind
		if kind == "" {
			kind = n.Kind
		}
		switch {
		case n.Path != "" && n.Line > 0 && n.Kind != "file":
			fmt.Fprintf(w, "  (%s, %s:%d)", kind, n.Path, n.Line)
		case kind != "":
			fmt.Fprintf(w, "  (%s)", kind)
		}
		fmt.Fprintln(w)
		if n.Title != "" {
			fmt.Fprintf(w, "      %s\n", clipText(n.Title, 160))
		}
	}
	if r.Truncated {
		fmt.Fprintf(w, "(%d of %d neighbours shown)\n", len(r.Neighbors), r.Total)
	}
}

// clipText returns s on one line, cut to about n bytes.
func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + " …"
	}
	return s
}
