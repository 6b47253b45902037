package wiki

import (
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// maxLinkedSnippetBytes bounds the snippet of a stub added for the code a
// memory is about.
const maxLinkedSnippetBytes = 160

// AnnotationPages returns the authored pages to rank with the code
// (engine.Options.Extra): memories, and the notes of each page under that
// page's ID. r may be nil.
func AnnotationPages(r *annotate.Placement) []graph.Page {
	if r == nil {
		return nil
	}
	return r.RankPages()
}

// AnnotateResult finishes an answer ranked with AnnotationPages pages: it marks
// note stubs (Kind "note", Title with the note's date) and memory stubs that
// are not fresh (their standing in the title), puts the page a memory is
// about right after the memory (moving its stub up, or adding one from g
// when the answer lacks it), and then drops stubs from the end until the
// rendered answer fits its budget again, so UsedTokens stays exact.
// r and g may be nil.
func AnnotateResult(res *engine.Result, r *annotate.Placement, src graph.PageSource) {
	if r == nil || len(res.Results) == 0 {
		return
	}
	var out []engine.Stub
	placed := map[string]bool{} // IDs of code stubs already in out
	for _, st := range res.Results {
		switch {
		case st.Kind == "memory" && !strings.HasPrefix(st.ID, "memory:"):
			// The notes of page st.ID.
			ns := r.Notes(st.ID)
			if len(ns) == 0 {
				out = append(out, st)
				continue
			}
			last := ns[len(ns)-1]
			st.Kind = "note"
			st.Title = "note " + last.Time.Local().Format("2006-01-02")
			if len(ns) > 1 {
				st.Title = "notes (" + strconv.Itoa(len(ns)) + ", latest " + last.Time.Local().Format("2006-01-02") + ")"
			}
			for _, n := range ns {
				if d := n.Describe(anchoredAt(n.Anchor, n.Time)); d != "" {
					st.Title += " — " + d
					break
				}
			}
			out = append(out, st)
		case st.Kind == "memory":
			m, ok := r.Memory(strings.TrimPrefix(st.ID, "memory:"))
			if !ok {
				out = append(out, st)
				continue
			}
			if d := m.Describe(anchoredAt(m.Anchor, m.Created)); d != "" {
				st.Title += " — " + d
			}
			out = append(out, st)
			if m.Link == "" || m.State == annotate.StateOrphan || placed[m.ShownOn] {
				continue
			}
			// The code it is about, right after it.
			if code, ok := takeStub(res.Results, m.ShownOn, placed); ok {
				code.Score = st.Score
				out = append(out, code)
				placed[code.ID] = true
			} else if code, ok := stubOf(src, m.ShownOn); ok {
				code.Score = st.Score
				out = append(out, code)
				placed[code.ID] = true
			}
		default:
			if placed[st.ID] {
				continue // moved up beside its memory
			}
			placed[st.ID] = true
			out = append(out, st)
		}
	}
	res.Results = out
	refit(res)
}

// takeStub returns the code stub with the given ID from rs, unless it was
// placed already.
func takeStub(rs []engine.Stub, id string, placed map[string]bool) (engine.Stub, bool) {
	if placed[id] {
		return engine.Stub{}, false
	}
	for _, st := range rs {
		if st.ID == id && st.Kind != "memory" && st.Kind != "note" {
			return st, true
		}
	}
	return engine.Stub{}, false
}

// stubOf builds a stub for page id of src.
func stubOf(src graph.PageSource, id string) (engine.Stub, bool) {
	if src == nil {
		return engine.Stub{}, false
	}
	pages, err := src.PagesOf([]string{id})
	p := pages[id]
	if err != nil || p == nil {
		return engine.Stub{}, false
	}
	st := engine.Stub{ID: p.ID, Kind: p.Kind.String(), Title: p.Title, Path: p.Path, Line: p.Line}
	if p.Kind == graph.KindModule {
		st.Path, st.Line = "", 0
	}
	line, _, _ := strings.Cut(strings.TrimSpace(p.Doc), "\n")
	if len(line) > maxLinkedSnippetBytes {
		line = strings.ToValidUTF8(line[:maxLinkedSnippetBytes], "") + "…"
	}
	st.Snippet = line
	return st, true
}

// refit drops stubs from the end of res until its rendering fits the
// budget, and recounts UsedTokens.
func refit(res *engine.Result) {
	for {
		res.UsedTokens = engine.CountTokens(res.Render())
		if res.UsedTokens <= res.BudgetTokens || len(res.Results) == 0 {
			return
		}
		res.Results = res.Results[:len(res.Results)-1]
		res.More++
		res.Truncated = true
	}
}
