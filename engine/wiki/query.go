package wiki

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// Query ranks page stubs for question within opt's budget, memories
// ranked beside the code (MemoryPages) and the answer annotated with
// notes and the pages memories are about (AnnotateResult). a may be nil;
// with a nil snap nothing decodes the graph (no staleness, as the hook wants).
// opt.MemoryPages is set here.
func Query(ctx context.Context, snap *graph.Snapshot, ix *engine.Index, a *annotate.Annotations, question string, opt engine.Options) (engine.Result, error) {
	r := PlaceAnnotations(snap, a)
	opt.Extra = AnnotationPages(r)
	res, err := ix.Query(ctx, question, opt)
	if err != nil {
		return res, err
	}
	var g *graph.Graph
	if snap != nil && a != nil && a.HasAnchors() {
		g, _ = snap.Graph()
	}
	AnnotateResult(&res, r, g)
	return res, nil
}

// StalePaths lists, once each and in answer order, the result paths whose
// files changed since g was built (one stat each).
func (g *Gen) StalePaths(root string, res engine.Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, st := range res.Results {
		if st.Path != "" && !seen[st.Path] {
			seen[st.Path] = true
			if g.FileChanged(root, st.Path) {
				out = append(out, st.Path)
			}
		}
	}
	return out
}

// ParseKinds parses a comma-separated list of page kinds ("" is every kind).
func ParseKinds(list string) ([]graph.Kind, error) {
	var out []graph.Kind
	for _, k := range strings.Split(list, ",") {
		if k = strings.TrimSpace(strings.ToLower(k)); k == "" {
			continue
		}
		kind, ok := graph.ParseKind(k)
		if !ok {
			return nil, fmt.Errorf("unknown page kind %q: give some of module, file, symbol, doc, memory, comma-separated", k)
		}
		if !slices.Contains(out, kind) {
			out = append(out, kind)
		}
	}
	return out, nil
}
