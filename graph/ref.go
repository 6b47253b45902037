package graph

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
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
	return resolveRef(graphRefs{g}, ref, base)
}

// refPages is what ResolveRef reads of a generation's pages: the whole
// graph (graphRefs), or a snapshot read by page views (snapRefs, view.go),
// which must give the same answers.
type refPages interface {
	hasFile(p string) bool
	hasModule(d string) bool
	// filePages returns the pages of file p (none: nil).
	filePages(p string) ([]Page, error)
	// nameCandidates returns pages among which are all those matchName
	// ranks 0–2 for q (the reference name with separators made "."),
	// name (as typed) in no file: the symbols whose name ends q, or that
	// q ends, and the files whose base name is name. all reports that
	// they are every page (no slow path needed).
	nameCandidates(q, name string) (pages []Page, all bool, err error)
	// eachNamePage calls fn with every page matchName may rank or
	// suggest for q in no file (symbols and files at least); a page's ID
	// may be left empty, for pageID to make.
	eachNamePage(q string, fn func(*Page) error) error
}

// graphRefs is refPages over the whole graph.
type graphRefs struct{ g *Graph }

func (r graphRefs) hasFile(p string) bool {
	_, ok := r.g.Lookup(FileID(p))
	return ok
}

func (r graphRefs) hasModule(d string) bool {
	_, ok := r.g.Lookup(ModuleID(d))
	return ok
}

func (r graphRefs) filePages(p string) ([]Page, error) {
	i, ok := r.g.Lookup(FileID(p))
	if !ok {
		return nil, nil
	}
	j := int(i) + 1
	for j < len(r.g.Pages) && r.g.Pages[j].Kind != KindFile && r.g.Pages[j].Kind != KindModule && r.g.Pages[j].Path == p {
		j++
	}
	return r.g.Pages[i:j:j], nil
}

func (r graphRefs) nameCandidates(string, string) ([]Page, bool, error) { return r.g.Pages, true, nil }

func (r graphRefs) eachNamePage(_ string, fn func(*Page) error) error {
	for i := range r.g.Pages {
		if err := fn(&r.g.Pages[i]); err != nil {
			return err
		}
	}
	return nil
}

// resolveRef is ResolveRef over src.
func resolveRef(src refPages, ref, base string) (string, error) {
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
		if file, ok, err := refPath(src, p, base); err != nil {
			return "", err
		} else if ok && src.hasFile(file) {
			pages, err := src.filePages(file)
			if err != nil {
				return "", err
			}
			for _, id := range []string{SymbolID(file, frag), DocID(file, frag)} {
				if slices.ContainsFunc(pages, func(p Page) bool { return p.ID == id }) {
					return id, nil
				}
			}
			return matchName(src, ref, frag, file)
		}
	}
	// PATH:LINE
	if i := strings.LastIndexByte(ref, ':'); i > 0 {
		if line, err := strconv.Atoi(ref[i+1:]); err == nil && line > 0 {
			if file, ok, err := refPath(src, ref[:i], base); err != nil {
				return "", err
			} else if ok && src.hasFile(file) {
				pages, err := src.filePages(file)
				if err != nil {
					return "", err
				}
				return symbolAt(pages, file, line), nil
			}
		}
	}
	if p, ok, err := refPath(src, ref, base); err != nil {
		return "", err
	} else if ok {
		if src.hasFile(p) {
			return FileID(p), nil
		}
		return ModuleID(p), nil
	}
	return matchName(src, ref, ref, "")
}

// refPath reports the repository path that p names, taken from base and
// then from the root: a file page or a module page must exist for it. A
// path leaving the root is an error.
func refPath(src refPages, p, base string) (string, bool, error) {
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
		if src.hasFile(t) || src.hasModule(t) {
			return t, true, nil
		}
	}
	return "", false, nil
}

// symbolAt is the innermost symbol of file (its pages) holding line, else
// the file.
func symbolAt(pages []Page, file string, line int) string {
	best, span := FileID(file), -1
	for i := range pages {
		p := &pages[i]
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
func matchName(src refPages, ref, name, file string) (string, error) {
	q, qual, last := refName(name)
	var hits []refMatch
	near := newNearNames(q, file)
	match := func(p *Page) {
		if rank := nameRank(p, q, qual, last, name, file); rank >= 0 {
			hits = append(hits, refMatch{id: pageID(p), rank: rank, test: p.Test, sim: similarity(q, p.Qualified)})
		}
	}
	var pages []Page
	all := true
	var err error
	if file != "" {
		pages, err = src.filePages(file)
	} else {
		pages, all, err = src.nameCandidates(q, name)
	}
	if err != nil {
		return "", err
	}
	for i := range pages {
		if file == "" || pages[i].Path == file {
			match(&pages[i])
		}
	}
	if !all && minRank(hits) >= 3 {
		// No exact match among the candidates: every page, for the
		// matches regardless of case and the near names.
		hits = nil
		err := src.eachNamePage(q, func(p *Page) error {
			match(p)
			near.add(p)
			return nil
		})
		if err != nil {
			return "", err
		}
	} else if len(hits) == 0 {
		for i := range pages {
			near.add(&pages[i])
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
		return "", &RefError{Ref: ref, Candidates: near.ids()}
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

// pageID is p's ID, made for a symbol page passed without one
// (eachNamePage).
func pageID(p *Page) string {
	if p.ID == "" && p.Kind == KindSymbol {
		return SymbolID(p.Path, p.Qualified)
	}
	return p.ID
}

// refName returns name with its separators made "." (q), and q's
// qualifier (pkg of pkg.Func) and last part.
func refName(name string) (q, qual, last string) {
	q = strings.NewReplacer("::", ".", "#", ".", "->", ".").Replace(name)
	q = strings.TrimSuffix(q, "()")
	last = q
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		qual, last = q[:i], q[i+1:]
	}
	return q, qual, last
}

// nameRank is how well page p matches name (q, qual, last: refName) in
// file ("" for any): 0 best, -1 not at all.
func nameRank(p *Page, q, qual, last, name, file string) int {
	switch p.Kind {
	case KindSymbol:
		switch {
		case p.Qualified == q:
			return 0
		case strings.HasSuffix(p.Qualified, "."+q):
			return 1
		case qual == "" && p.Name == q:
			return 1
		case qual != "" && p.Name == last && pkgOf(p.Path, qual):
			return 2
		case strings.EqualFold(p.Qualified, q) || qual == "" && strings.EqualFold(p.Name, q):
			return 3
		}
	case KindFile:
		if path.Base(p.Path) == name {
			return 0
		}
	case KindDoc:
		if file != "" && strings.EqualFold(p.Qualified, name) {
			return 0
		}
	}
	return -1
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

// nearNames collects the IDs of the symbols and files (in file when not
// "") whose names are closest to q.
type nearNames struct {
	q, file string
	lq      []rune // q in lower case
	name    []rune // scratch: the name compared
	row     []int  // scratch: levenshteinWithin's rows
	best    []nearName
}

type nearName struct {
	id   string
	sim  float64
	test bool
}

// nearKeep is how many near names a RefError suggests.
const nearKeep = 5

func newNearNames(q, file string) *nearNames {
	return &nearNames{q: q, lq: []rune(strings.ToLower(q)), file: file}
}

func (n *nearNames) add(p *Page) {
	if n.file != "" && p.Path != n.file {
		return
	}
	var name string
	switch p.Kind {
	case KindSymbol:
		name = p.Qualified
		if !strings.Contains(n.q, ".") {
			name = p.Name
		}
	case KindFile:
		name = path.Base(p.Path)
	case KindDoc:
		if n.file == "" {
			return
		}
		name = p.Qualified
	default:
		return
	}
	s, ok := n.similar(name)
	if !ok {
		return
	}
	n.best = append(n.best, nearName{pageID(p), s, p.Test})
	if len(n.best) > 4*nearKeep {
		n.sort()
		n.best = n.best[:nearKeep]
	}
}

func (n *nearNames) sort() {
	sort.Slice(n.best, func(i, j int) bool {
		return lessNear(n.best[i].sim, n.best[j].sim, n.best[i].test, n.best[j].test, n.best[i].id, n.best[j].id)
	})
}

// ids returns the closest names' IDs, the closest first.
func (n *nearNames) ids() []string {
	n.sort()
	var out []string
	for _, b := range n.best[:min(len(n.best), nearKeep)] {
		out = append(out, b.id)
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

// similar is similarity(lower(q), lower(name)) when it is at least 0.5
// (a near name), computed without allocating and giving up on the edit
// distance once it must exceed half the longer length: a miss at 100k
// files compares 1.2M names.
func (n *nearNames) similar(name string) (float64, bool) {
	n.name = n.name[:0]
	for _, r := range name {
		n.name = append(n.name, unicode.ToLower(r))
	}
	a, b := n.lq, n.name
	la, lb := len(a), len(b)
	if la == 0 || lb == 0 {
		return 0, false
	}
	long := max(la, lb)
	if min(la, lb)*3 < long {
		return 0, false
	}
	holds := runesContain(a, b) || runesContain(b, a)
	k := long / 2 // 1 - d/long >= 0.5 exactly when d <= long/2
	d := levenshteinWithin(a, b, k, &n.row)
	if d > k {
		return 0.6, holds
	}
	s := 1 - float64(d)/float64(long)
	if holds {
		s = max(s, 0.6)
	}
	return s, true
}

// runesContain reports whether b occurs in a.
func runesContain(a, b []rune) bool {
	for i := 0; i+len(b) <= len(a); i++ {
		if slices.Equal(a[i:i+len(b)], b) {
			return true
		}
	}
	return false
}

// levenshteinWithin is the edit distance of a and b when it is at most k,
// else some number above k (it stops once every entry of a row exceeds
// k). row is scratch space.
func levenshteinWithin(a, b []rune, k int, row *[]int) int {
	if abs(len(a)-len(b)) > k {
		return k + 1
	}
	if cap(*row) < 2*(len(b)+1) {
		*row = make([]int, 2*(len(b)+1))
	}
	prev, cur := (*row)[:len(b)+1], (*row)[len(b)+1:2*(len(b)+1)]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(c, prev[j], cur[j-1])
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
			low = min(low, cur[j])
		}
		if low > k {
			return k + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
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

// ResolveRef is Graph.ResolveRef on the snapshot's pages, read by page
// views (view.go): a page ID is returned as it is, a path or a name reads
// the files and names it needs, not the whole graph.
func (s *Snapshot) ResolveRef(ref, base string) (string, error) {
	ref = strings.TrimSpace(ref)
	if prefix, _, ok := strings.Cut(ref, ":"); ok {
		if _, known := ParseKind(prefix); known {
			_, _, _, err := ParseID(ref)
			return ref, err
		}
	}
	v, err := s.pageView()
	if err != nil {
		return "", err
	}
	return resolveRef(snapRefs{v}, ref, base)
}
