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
	// Use says how a reference uses its target where the syntax tells
	// ("call", "type", "selector", or several joined by ","), Confidence
	// what resolved it: "typed" (a declared type or a type-named
	// qualifier), "import", "scope" (the one definition in the file,
	// directory or imported modules), "name" (the one in the repository),
	// "loose" (one of several same-named definitions; listed only when
	// asked).
	Use        string `json:"use,omitempty"`
	Confidence string `json:"confidence,omitempty"`
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
// snap's graph and a's memories (either may be nil). With loose, the
// references matched by name among several definitions follow the others.
func Related(snap *graph.Snapshot, a *annotate.Annotations, p *Page, rel, dir string, max int, loose bool) RelatedView {
	out := related(p, rel, dir, max, loose)
	var pages map[string]*graph.Page
	if snap != nil {
		ids := make([]string, len(out.Neighbors))
		for i := range out.Neighbors {
			ids[i] = out.Neighbors[i].ID
		}
		pages, _ = snap.PagesOf(ids) // the neighbours' pages alone, not the whole graph
	}
	for i := range out.Neighbors {
		describeNeighbor(&out.Neighbors[i], pages, a)
	}
	return out
}

// describeNeighbor fills in n's kind, title and place (pages: by ID).
func describeNeighbor(n *Neighbor, pages map[string]*graph.Page, a *annotate.Annotations) {
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
	pg := pages[n.ID]
	if pg == nil {
		return
	}
	n.SymKind, n.Path = pg.SymKind, pg.Path
	if pg.Kind != graph.KindModule {
		n.Line = pg.Line
	}
	if pg.Title != pg.Path {
		n.Title = pg.Title
	}
}

func related(p *Page, rel, dir string, max int, loose bool) RelatedView {
	out := RelatedView{ID: p.ID, Neighbors: []Neighbor{}}
	for t := graph.Contains; t <= graph.Relates; t++ {
		if rel != "" && t.String() != rel {
			continue
		}
		d := p.Edges[t.String()]
		add := func(ids []string, attrs []graph.EdgeAttr, direction string, total int, conf graph.Confidence) {
			out.Total += max0(total, len(ids))
			for i, id := range ids {
				if max > 0 && len(out.Neighbors) >= max {
					out.Truncated = true
					return
				}
				n := Neighbor{ID: id, Rel: t.String(), Direction: direction, Confidence: conf.String()}
				if i < len(attrs) {
					n.Use = strings.Join(attrs[i].UseNames(), ",")
					n.Confidence = attrs[i].Confidence().String()
				}
				out.Neighbors = append(out.Neighbors, n)
			}
		}
		if dir != "in" {
			add(d.Out, d.OutAttr, "out", len(d.Out), 0)
		}
		if dir != "out" {
			add(d.In, d.InAttr, "in", d.InTotal, 0)
		}
		if loose && t == graph.References {
			if dir != "in" {
				add(d.looseOut, nil, "out", d.LooseOut, graph.ConfLoose)
			}
			if dir != "out" {
				add(d.looseIn, nil, "in", d.LooseIn, graph.ConfLoose)
			}
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
		loose := n.Confidence == graph.ConfLoose.String()
		if h := fmt.Sprint(n.Rel, n.Direction, loose); h != last {
			arrow := map[string]string{"out": "→", "in": "←"}[n.Direction]
			if loose {
				fmt.Fprintf(w, "%s %s matched by name only (a name defined several times, or a common method name; often wrong)\n", n.Rel, arrow)
			} else {
				fmt.Fprintf(w, "%s %s\n", n.Rel, arrow)
			}
			last = h
		}
		fmt.Fprintf(w, "  %s", n.ID)
		if n.Confidence != "" {
			fmt.Fprintf(w, "  [%s]", strings.Trim(n.Use+" "+n.Confidence, " "))
		}
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
