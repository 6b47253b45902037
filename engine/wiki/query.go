package wiki

import (
	"context"
	"fmt"
	"slices"
	"strconv"
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
	// A partial answer's first line (PartialLine) is paid from the budget.
	part := PartialOf(snap)
	line := 0
	if part != nil && opt.BudgetTokens > 0 {
		line = min(engine.CountTokens(PartialLine(part)), opt.BudgetTokens-1)
		opt.BudgetTokens -= line
	}
	res, err := ix.Query(ctx, question, opt)
	if err != nil {
		return res, err
	}
	res.BudgetTokens += line
	res.UsedTokens += line
	var src graph.PageSource
	if snap != nil && a != nil && a.HasAnchors() {
		src = snap
	}
	AnnotateResult(&res, r, src)
	res.Partial = part
	return res, nil
}

// PartialOf returns the progress of the first build that published snap
// when snap is a partial generation, else nil.
func PartialOf(snap *graph.Snapshot) *engine.Partial {
	if snap == nil {
		return nil
	}
	if info := snap.Info(); info.Mode == "partial" {
		return &engine.Partial{Files: info.Files, Total: info.FilesTotal}
	}
	return nil
}

// PartialLine is the first line of a partial answer's text ("" when p is
// nil): how far the first build is, and that the answer covers only that.
func PartialLine(p *engine.Partial) string {
	if p == nil {
		return ""
	}
	if p.Total <= 0 { // the first files, parsed while the tree is listed
		return fmt.Sprintf("index being built: %s files so far, the rest of the tree still being listed; answers cover those\n", thousands(p.Files))
	}
	return fmt.Sprintf("index being built: %s of %s files so far; answers cover those\n", thousands(p.Files), thousands(p.Total))
}

// thousands writes n with comma separators (12,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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
