package mcp

import (
	"fmt"
	"io"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Neighbor is one edge of a page seen from that page.
type Neighbor struct {
	ID        string `json:"id"`
	Rel       string `json:"rel"`
	Direction string `json:"direction"`
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

// Related lists the neighbours of p, at most max (0 = all).
func Related(p *Page, rel, dir string, max int) RelatedView {
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
		fmt.Fprintf(w, "  %s\n", n.ID)
	}
	if r.Truncated {
		fmt.Fprintf(w, "(%d of %d neighbours shown)\n", len(r.Neighbors), r.Total)
	}
}
