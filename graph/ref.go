package graph

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrAmbiguous is returned (wrapped in a *RefError) for a page reference
// that names several pages.
var ErrAmbiguous = errors.New("ambiguous page reference")

// maxRefCandidates bounds the IDs a RefError lists.
const maxRefCandidates = 8

// RefError is a page reference that names no page (it matches ErrNotFound
// with errors.Is) or several (ErrAmbiguous). Candidates are full page IDs,
// the closest names first.
type RefError struct {
	Ref        string
	Ambiguous  bool
	Total      int // pages matched when Ambiguous (Candidates holds at most maxRefCandidates)
	Candidates []string
}

func (e *RefError) Error() string {
	var b strings.Builder
	if e.Ambiguous {
		fmt.Fprintf(&b, "%q names %d pages; pass one of these IDs:", e.Ref, e.Total)
		for _, c := range e.Candidates {
			b.WriteString("\n  " + c)
		}
		if e.Total > len(e.Candidates) {
			fmt.Fprintf(&b, "\n  … %d more (qualify the name, e.g. Class.method, or give PATH#NAME)", e.Total-len(e.Candidates))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "no page %q", e.Ref)
	if len(e.Candidates) == 0 {
		b.WriteString("; give a page ID from a query, a repository path or a symbol name")
		return b.String()
	}
	b.WriteString("; did you mean:")
	for _, c := range e.Candidates {
		b.WriteString("\n  " + c)
	}
	return b.String()
}

// Unwrap makes a RefError match ErrNotFound or ErrAmbiguous.
func (e *RefError) Unwrap() error {
	if e.Ambiguous {
		return ErrAmbiguous
	}
	return ErrNotFound
}

// ResolveRef turns what a person or an agent typed for a page into its page
// ID. It is the one place where the CLI and the MCP tools read a page
// reference. ref may be:
//
//   - a page ID (KIND:...), returned as is once well formed (whether the
//     page exists is the caller's lookup);
//   - a repository path: a file's page, or a directory's module page ("."
//     is the root module); PATH:LINE is the innermost symbol holding LINE;
//   - PATH#NAME: a symbol (qualified name) or doc section (slug) of that file;
//   - a symbol name, bare (url_for), qualified (Flask.url_for, a::b, A#b) or
//     package-qualified (pkg.Func, where pkg is the file's or directory's
//     name), or a file's base name (app.py).
//
// Relative paths are taken from base first (a slash path relative to the
// repository root, "" for the root, as a CLI run from a subfolder passes
// it), then from the root; a path that leaves the root is refused
// (ErrBadID). A name that matches several pages, or nothing, is a
// *RefError listing candidate IDs.
func (g *Graph) ResolveRef(ref, base string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", fmt.Errorf("%w: empty; give a page ID, a repository path or a symbol name", ErrBadID)
	}
	if strings.ContainsRune(ref, 0) {
		return "", fmt.Errorf("%w: contains NUL", ErrBadID)
	}
	if prefix, _, ok := strings.Cut(ref, ":"); ok {
		if _, known := ParseKind(prefix); known {
			if _, _, _, err := ParseID(ref); err != nil {
				return "", err
			}
			return ref, nil
		}
	}
	// PATH#NAME
	if p, frag, ok := strings.Cut(ref, "#"); ok && p != "" && frag != "" {
		if file, ok, err := g.refPath(p, base); err != nil {
			return "", err
		} else if ok {
			if _, isFile := g.Lookup(FileID(file)); isFile {
				for _, id := range []string{SymbolID(file, frag), DocID(file, frag)} {
					if _, ok := g.Lookup(id); ok {
						return id, nil
					}
				}
				return g.matchName(ref, frag, file)
			}
		}
	}
	// PATH:LINE
	if i := strings.LastIndexByte(ref, ':'); i > 0 {
		if line, err := strconv.Atoi(ref[i+1:]); err == nil && line > 0 {
			if file, ok, err := g.refPath(ref[:i], base); err != nil {
				return "", err
			} else if ok {
				if _, isFile := g.Lookup(FileID(file)); isFile {
					return g.symbolAt(file, line), nil
				}
			}
		}
	}
	if p, ok, err := g.refPath(ref, base); err != nil {
		return "", err
	} else if ok {
		if _, isFile := g.Lookup(FileID(p)); isFile {
			return FileID(p), nil
		}
		return ModuleID(p), nil
	}
	return g.matchName(ref, ref, "")
}

// refPath reports the repository path that p names, taken from base and
// then from the root: a file page or a module page must exist for it. A
// path leaving the root is an error.
func (g *Graph) refPath(p, base string) (string, bool, error) {
	p = strings.ReplaceAll(p, "\\", "/")
	if strings.HasPrefix(p, "/") || (len(p) > 2 && p[1] == ':' && p[2] == '/') {
		return "", false, fmt.Errorf("%w %q: absolute path; give a path relative to the repository root", ErrBadID, p)
	}
	var tries []string
	if base != "" && base != "." {
		tries = append(tries, path.Join(base, p))
	}
	tries = append(tries, path.Clean(p))
	for i, t := range tries {
		if t == ".." || strings.HasPrefix(t, "../") {
			if i == 0 || len(tries) == 1 {
				return "", false, fmt.Errorf("%w %q: the path leaves the repository", ErrBadID, p)
			}
			continue
		}
		if _, ok := g.Lookup(FileID(t)); ok {
			return t, true, nil
		}
		if _, ok := g.Lookup(ModuleID(t)); ok {
			return t, true, nil
		}
	}
	return "", false, nil
}

// symbolAt is the innermost symbol of file holding line, else the file.
func (g *Graph) symbolAt(file string, line int) string {
	best, span := FileID(file), -1
	for i := range g.Pages {
		p := &g.Pages[i]
		if p.Kind != KindSymbol || p.Path != file || p.Line > line || max(p.EndLine, p.Line) < line {
			continue
		}
		if s := max(p.EndLine, p.Line) - p.Line; span < 0 || s < span {
			best, span = p.ID, s
		}
	}
	return best
}

// refMatch is a page a name matches and how well (lower is better).
type refMatch struct {
	id   string
	rank int
	sim  float64
	test bool
}

// matchName finds the symbol (or file) pages named name, in file when not
// "". ref is what to quote in errors.
func (g *Graph) matchName(ref, name, file string) (string, error) {
	q := strings.NewReplacer("::", ".", "#", ".", "->", ".").Replace(name)
	q = strings.TrimSuffix(q, "()")
	last := q
	var qual string // the qualifier of pkg.Func
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		qual, last = q[:i], q[i+1:]
	}
	var hits []refMatch
	for i := range g.Pages {
		p := &g.Pages[i]
		if file != "" && p.Path != file {
			continue
		}
		rank := -1
		switch p.Kind {
		case KindSymbol:
			switch {
			case p.Qualified == q:
				rank = 0
			case strings.HasSuffix(p.Qualified, "."+q):
				rank = 1
			case qual == "" && p.Name == q:
				rank = 1
			case qual != "" && p.Name == last && pkgOf(p.Path, qual):
				rank = 2
			case strings.EqualFold(p.Qualified, q) || qual == "" && strings.EqualFold(p.Name, q):
				rank = 3
			}
		case KindFile:
			if path.Base(p.Path) == name {
				rank = 0
			}
		case KindDoc:
			if file != "" && strings.EqualFold(p.Qualified, name) {
				rank = 0
			}
		}
		if rank >= 0 {
			hits = append(hits, refMatch{id: p.ID, rank: rank, test: p.Test, sim: similarity(q, p.Qualified)})
		}
	}
	// Exact-case matches hide case-insensitive ones.
	if best := minRank(hits); best < 3 {
		kept := hits[:0]
		for _, h := range hits {
			if h.rank < 3 {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	// One match outside tests wins over matches in tests.
	if len(hits) > 1 {
		var only *refMatch
		n := 0
		for i := range hits {
			if !hits[i].test {
				only = &hits[i]
				n++
			}
		}
		if n == 1 {
			return only.id, nil
		}
	}
	switch len(hits) {
	case 1:
		return hits[0].id, nil
	case 0:
		return "", &RefError{Ref: ref, Candidates: g.nearNames(q, file)}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.test != b.test {
			return !a.test
		}
		if a.sim != b.sim {
			return a.sim > b.sim
		}
		return a.id < b.id
	})
	e := &RefError{Ref: ref, Ambiguous: true, Total: len(hits)}
	for _, h := range hits[:min(len(hits), maxRefCandidates)] {
		e.Candidates = append(e.Candidates, h.id)
	}
	return "", e
}

func minRank(hits []refMatch) int {
	m := 99
	for _, h := range hits {
		m = min(m, h.rank)
	}
	return m
}

// pkgOf reports whether qual names the file (its stem) or its directory.
func pkgOf(file, qual string) bool {
	if i := strings.LastIndexByte(qual, '.'); i >= 0 {
		qual = qual[i+1:]
	}
	base := path.Base(file)
	stem := strings.TrimSuffix(base, path.Ext(base))
	return stem == qual || path.Base(path.Dir(file)) == qual
}

// nearNames returns the IDs of the symbols and files (in file when not "")
// whose names are closest to q.
func (g *Graph) nearNames(q, file string) []string {
	type near struct {
		id   string
		sim  float64
		test bool
	}
	const keep = 5
	var best []near
	lq := strings.ToLower(q)
	for i := range g.Pages {
		p := &g.Pages[i]
		if file != "" && p.Path != file {
			continue
		}
		var name string
		switch p.Kind {
		case KindSymbol:
			name = p.Qualified
			if !strings.Contains(q, ".") {
				name = p.Name
			}
		case KindFile:
			name = path.Base(p.Path)
		case KindDoc:
			if file == "" {
				continue
			}
			name = p.Qualified
		default:
			continue
		}
		s := similarity(lq, strings.ToLower(name))
		if s < 0.5 {
			continue
		}
		best = append(best, near{p.ID, s, p.Test})
		if len(best) > 4*keep {
			sort.Slice(best, func(i, j int) bool {
				return lessNear(best[i].sim, best[j].sim, best[i].test, best[j].test, best[i].id, best[j].id)
			})
			best = best[:keep]
		}
	}
	sort.Slice(best, func(i, j int) bool {
		return lessNear(best[i].sim, best[j].sim, best[i].test, best[j].test, best[i].id, best[j].id)
	})
	var out []string
	for _, n := range best[:min(len(best), keep)] {
		out = append(out, n.id)
	}
	return out
}

func lessNear(a, b float64, ta, tb bool, ia, ib string) bool {
	if a != b {
		return a > b
	}
	if ta != tb {
		return !ta
	}
	return ia < ib
}

// similarity is 1 minus the edit distance of a and b over the longer's
// length, with a bonus when one holds the other; 0 for very different
// lengths.
func similarity(a, b string) float64 {
	la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	if la == 0 || lb == 0 {
		return 0
	}
	long := max(la, lb)
	if min(la, lb)*3 < long {
		return 0
	}
	s := 1 - float64(levenshtein(a, b))/float64(long)
	if strings.Contains(a, b) || strings.Contains(b, a) {
		s = max(s, 0.6)
	}
	return s
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c = 1 + min(c, prev[j], cur[j-1])
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// ResolveRef is Graph.ResolveRef on the snapshot's graph; a page ID is
// returned without decoding the graph.
func (s *Snapshot) ResolveRef(ref, base string) (string, error) {
	ref = strings.TrimSpace(ref)
	if prefix, _, ok := strings.Cut(ref, ":"); ok {
		if _, known := ParseKind(prefix); known {
			_, _, _, err := ParseID(ref)
			return ref, err
		}
	}
	g, err := s.Graph()
	if err != nil {
		return "", err
	}
	return g.ResolveRef(ref, base)
}
