package walk

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// NotIndexed counts the files of one kind that a build left out for one
// reason: nothing is dropped silently. Kind is the lower-case extension
// (".png"), or the base name of a file without one ("LICENSE").
type NotIndexed struct {
	Kind   string `json:"ext"`
	Reason string `json:"reason"`
	Files  int    `json:"files"`
}

// notIndexedKey groups rejected files.
type notIndexedKey struct{ kind, reason string }

// fileKind is the grouping key of a path: its lower-case extension, or its
// base name when it has none or when a name rule rejected it.
func fileKind(p string, byName bool) string {
	base := path.Base(p)
	ext := strings.ToLower(path.Ext(base))
	if ext == "" || ext == base || byName {
		return base
	}
	return ext
}

// rejectReason says why Detect rejected rel, and whether the reason is a
// rule on the whole name (so the group is the name, not the extension).
func (w *walker) rejectReason(rel string) (string, bool) {
	if w.opt.Reason != nil {
		if r := w.opt.Reason(rel); r != "" {
			return r, !parser.BinaryName(rel)
		}
		return "no language", false
	}
	return "binary (by extension)", false
}

// reject counts a file that Detect rejected.
func (w *walker) reject(rel string) {
	w.res.Unsupported++
	r, byName := w.rejectReason(rel)
	if w.res.rejected == nil {
		w.res.rejected = map[notIndexedKey]int{}
	}
	w.res.rejected[notIndexedKey{fileKind(rel, byName), r}]++
}

// groupReason folds reasons that carry numbers ("too large (N bytes >
// limit M)") into one group.
func groupReason(r string) string {
	if i := strings.Index(r, " ("); i >= 0 && strings.HasPrefix(r, "too large") {
		return r[:i]
	}
	return r
}

// Reskip returns the groups of a build that skipped oldSkipped, with
// those skips replaced by newSkipped: what a build that walked only some
// paths reports, the counts of the files Detect rejects carried from the
// last walk of the whole tree (a file of such a kind added or removed since
// shows in the next one).
func Reskip(groups []NotIndexed, oldSkipped, newSkipped []Skip) []NotIndexed {
	r := &Result{rejected: map[notIndexedKey]int{}}
	for _, g := range groups {
		r.rejected[notIndexedKey{g.Kind, g.Reason}] += g.Files
	}
	for _, s := range oldSkipped {
		if s.Reason == reasonVendored {
			continue
		}
		k := notIndexedKey{fileKind(s.Path, false), groupReason(s.Reason)}
		if r.rejected[k]--; r.rejected[k] <= 0 {
			delete(r.rejected, k)
		}
	}
	return r.NotIndexed(newSkipped)
}

// NotIndexed groups the files Detect rejected during the walk and skipped
// (the walk's Skipped and those a build skipped after it; directories are
// left out) by kind and reason, most files first.
func (r *Result) NotIndexed(skipped []Skip) []NotIndexed {
	m := make(map[notIndexedKey]int, len(r.rejected))
	for k, n := range r.rejected {
		m[k] += n
	}
	for _, s := range skipped {
		if s.Reason == reasonVendored {
			continue // a directory, reported by path
		}
		m[notIndexedKey{fileKind(s.Path, false), groupReason(s.Reason)}]++
	}
	out := make([]NotIndexed, 0, len(m))
	for k, n := range m {
		out = append(out, NotIndexed{Kind: k.kind, Reason: k.reason, Files: n})
	}
	slices.SortFunc(out, func(a, b NotIndexed) int {
		if a.Files != b.Files {
			return b.Files - a.Files
		}
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return out
}

// NotIndexedLine renders groups as "3 .png, 1 LICENSE" for summary lines,
// at most max groups ("… and N more kinds").
func NotIndexedLine(groups []NotIndexed, max int) string {
	var b strings.Builder
	for i, g := range groups {
		if i == max {
			fmt.Fprintf(&b, ", … and %d more kinds", len(groups)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", g.Files, g.Kind)
	}
	return b.String()
}
