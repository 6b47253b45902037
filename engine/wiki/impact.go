package wiki

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Impact bounds: referrers are followed DefaultImpactDepth levels deep
// unless asked (at most MaxImpactDepth), each list shows at most
// MaxImpactShown entries (all are counted), and the answer fits
// DefaultImpactBudgetTokens like a wiki_query answer.
const (
	DefaultImpactDepth        = 3
	MaxImpactDepth            = 6
	MaxImpactShown            = 30
	DefaultImpactBudgetTokens = 2000
	minImpactBudgetTokens     = 200
	maxChangedRanges          = 50 // line ranges kept per changed file
)

// ImpactOptions shape an impact answer. The zero value takes the defaults.
type ImpactOptions struct {
	Depth        int // levels of referrers; 0 = DefaultImpactDepth, capped at MaxImpactDepth
	BudgetTokens int // 0 = DefaultImpactBudgetTokens, capped at engine.MaxBudgetTokens
	// Loose follows the references matched by name only, among several
	// definitions of the name (graph.ConfLoose), too; they are left out
	// (and counted at depth 1) otherwise.
	Loose bool
	// CheckHint, when set, is how the reader runs the project's tests
	// check ("wikitoolkit check tests", "wiki_check tests"); the answer
	// ends by pointing at it.
	CheckHint string
}

func (o ImpactOptions) depth() int {
	if o.Depth <= 0 {
		return DefaultImpactDepth
	}
	return min(o.Depth, MaxImpactDepth)
}

func (o ImpactOptions) budget() int {
	if o.BudgetTokens <= 0 {
		return DefaultImpactBudgetTokens
	}
	return min(max(o.BudgetTokens, minImpactBudgetTokens), engine.MaxBudgetTokens)
}

// ImpactPage is one page of an impact answer: a changed definition (depth
// 0) or a referrer at Depth, which references Via (a page one level up).
type ImpactPage struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	SymKind string `json:"symbol_kind,omitempty"`
	Title   string `json:"title,omitempty"`
	Path    string `json:"path,omitempty"`
	Line    int    `json:"line,omitempty"`
	Depth   int    `json:"depth"`
	Via     string `json:"via,omitempty"`
	Test    bool   `json:"test,omitempty"`
	viaName string
}

// ImpactList is a bounded list: Total counts every entry, Pages shows the
// first of them.
type ImpactList struct {
	Total int          `json:"total"`
	Pages []ImpactPage `json:"pages"`
}

// ImpactLevel is the referrers found at one depth (tests apart).
type ImpactLevel struct {
	Depth int `json:"depth"`
	ImpactList
}

// ImpactFile is a file holding changed definitions or referrers: how many
// of its pages the answer reaches and the least depth among them.
type ImpactFile struct {
	Path  string `json:"path"`
	Pages int    `json:"pages"`
	Depth int    `json:"depth"`
	Test  bool   `json:"test,omitempty"`
}

// ImpactFiles is the bounded list of files.
type ImpactFiles struct {
	Total int          `json:"total"`
	Files []ImpactFile `json:"files"`
}

// ChangedFile is one file of a diff: its status (modified, added,
// deleted), the changed line ranges of its new side, and whether the index
// is older than the file (Stale) or does not hold it (NotIndexed).
type ChangedFile struct {
	Path       string   `json:"path"`
	Status     string   `json:"status"`
	Lines      [][2]int `json:"lines,omitempty"`
	Stale      bool     `json:"stale,omitempty"`
	NotIndexed bool     `json:"not_indexed,omitempty"`
	deletions  []int    // lines after which lines were only deleted
}

// Impact is what a change to some definitions reaches: the definitions
// (Targets, depth 0), their transitive referrers over `references` edges
// grouped by depth, the tests among them (listed apart, not in Levels),
// and the files. Beyond counts referrers one level past Depth. Truncated
// says that the caps or the token budget left entries out; LeftOut says
// which.
type Impact struct {
	Target       string        `json:"target,omitempty"`
	DiffBase     string        `json:"diff_base,omitempty"`
	Changed      []ChangedFile `json:"changed,omitempty"`
	ChangedTotal int           `json:"changed_total,omitempty"`
	Targets      ImpactList    `json:"targets"`
	Depth        int           `json:"depth"`
	Levels       []ImpactLevel `json:"levels"`
	Tests        ImpactList    `json:"tests"`
	Files        ImpactFiles   `json:"files"`
	Beyond       int           `json:"beyond_depth,omitempty"`
	// LooseLeftOut counts the direct referrers matched by name only,
	// among several definitions, that the answer leaves out (see
	// ImpactOptions.Loose).
	LooseLeftOut int      `json:"loose_left_out,omitempty"`
	BudgetTokens int      `json:"budget_tokens"`
	UsedTokens   int      `json:"used_tokens"`
	Truncated    bool     `json:"truncated,omitempty"`
	LeftOut      []string `json:"left_out,omitempty"`
	Check        string   `json:"check,omitempty"`
}

// ImpactOf returns the impact of changing the page ref names (ResolveRef;
// base as there). A file or module page stands for the definitions it
// contains (a module's files' definitions, not its sub-modules'). It reads
// the pages the walk reaches, level by level (graph.Snapshot's
// Neighbourhood), not the whole graph.
func ImpactOf(snap *graph.Snapshot, ref, base string, opt ImpactOptions) (*Impact, error) {
	id, err := ResolveRef(snap, ref, base)
	if err != nil {
		return nil, err
	}
	g, err := snap.Neighbourhood([]string{id})
	if err != nil {
		return nil, err
	}
	i, ok := g.Lookup(id)
	if !ok {
		hint := "IDs come from wiki_query (or 'wikitoolkit query')"
		if near := snap.PageIDs(nearPrefix(id), 5); len(near) > 0 {
			hint = "did you mean " + strings.Join(near, ", ") + "?"
		}
		return nil, noPage{fmt.Sprintf("no page %q; %s", id, hint)}
	}
	seeds := []uint32{i}
	if k := g.Pages[i].Kind; k == graph.KindFile || k == graph.KindModule {
		seeds = append(seeds, contained(g, i)...)
	}
	im, err := impactFrom(snap.Neighbourhood, idsOf(g, seeds), opt)
	if err != nil {
		return nil, err
	}
	im.Target = id
	im.pack(opt.budget())
	return im, nil
}

// idsOf returns the IDs of pages ps of g.
func idsOf(g *graph.Graph, ps []uint32) []string {
	out := make([]string, len(ps))
	for k, i := range ps {
		out[k] = g.Pages[i].ID
	}
	return out
}

// contained returns the pages i contains, transitively, without entering
// modules.
func contained(g *graph.Graph, i uint32) []uint32 {
	var out []uint32
	stack := []uint32{i}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.Out(p, graph.Contains, false) {
			if g.Pages[e.To].Kind == graph.KindModule {
				continue
			}
			out = append(out, e.To)
			stack = append(stack, e.To)
		}
	}
	return out
}

// impactFrom walks the referrers of seeds (page IDs) breadth-first.
// around returns a graph holding the pages of ids, all their edges and
// their neighbours' pages (graph.Snapshot.Neighbourhood; a whole graph
// does too).
func impactFrom(around func(ids []string, also ...string) (*graph.Graph, error), seeds []string, opt ImpactOptions) (*Impact, error) {
	depth := opt.depth()
	im := &Impact{Depth: depth, Levels: []ImpactLevel{}, Targets: ImpactList{Pages: []ImpactPage{}}, Tests: ImpactList{Pages: []ImpactPage{}},
		Files: ImpactFiles{Files: []ImpactFile{}}, Check: opt.CheckHint}
	seen, looseSeen := map[string]bool{}, map[string]bool{}
	files := map[string]*ImpactFile{}
	addFile := func(ip *ImpactPage, d int) {
		path := ip.Path
		if ip.Kind == graph.KindModule.String() || path == "" {
			return
		}
		f := files[path]
		if f == nil {
			f = &ImpactFile{Path: path, Depth: d, Test: ip.Test}
			files[path] = f
		}
		f.Pages++
		f.Depth = min(f.Depth, d)
	}
	g, err := around(seeds)
	if err != nil {
		return nil, err
	}
	var frontier []string
	for _, s := range seeds {
		i, ok := g.Lookup(s)
		if seen[s] || !ok {
			continue
		}
		seen[s] = true
		frontier = append(frontier, s)
		ip := impactPage(g, i, 0, nil)
		im.Targets.Pages = append(im.Targets.Pages, ip)
		addFile(&ip, 0)
	}
	for d := 1; d <= depth+1 && len(frontier) > 0; d++ {
		if g, err = around(frontier); err != nil {
			return nil, err
		}
		var next []string
		var level []ImpactPage
		for _, id := range frontier {
			p, ok := g.Lookup(id)
			if !ok {
				continue
			}
			for _, e := range g.In(p, graph.References, false) {
				from := g.Pages[e.From].ID
				if seen[from] {
					continue
				}
				if e.Attr.Loose() && !opt.Loose {
					if d == 1 && !looseSeen[from] {
						looseSeen[from] = true
						im.LooseLeftOut++
					}
					continue
				}
				seen[from] = true
				next = append(next, from)
				level = append(level, impactPage(g, e.From, d, &g.Pages[p]))
			}
		}
		if d > depth {
			im.Beyond = len(level)
			break
		}
		sortImpact(level)
		lv := ImpactLevel{Depth: d, ImpactList: ImpactList{Pages: []ImpactPage{}}}
		for _, ip := range level {
			addFile(&ip, d)
			if ip.Test {
				im.Tests.Pages = append(im.Tests.Pages, ip)
				continue
			}
			lv.Pages = append(lv.Pages, ip)
		}
		lv.Total = len(lv.Pages)
		im.Levels = append(im.Levels, lv)
		frontier = next
	}
	im.Targets.Total = len(im.Targets.Pages)
	im.Tests.Total = len(im.Tests.Pages)
	for _, f := range files {
		im.Files.Files = append(im.Files.Files, *f)
	}
	slices.SortFunc(im.Files.Files, func(a, b ImpactFile) int {
		return cmp.Or(cmp.Compare(a.Depth, b.Depth), cmp.Compare(b.Pages, a.Pages), cmp.Compare(a.Path, b.Path))
	})
	im.Files.Total = len(im.Files.Files)
	// The caps: the first MaxImpactShown of each list.
	capList := func(l *ImpactList) {
		if len(l.Pages) > MaxImpactShown {
			l.Pages = l.Pages[:MaxImpactShown]
		}
	}
	capList(&im.Targets)
	capList(&im.Tests)
	for i := range im.Levels {
		capList(&im.Levels[i].ImpactList)
	}
	if len(im.Files.Files) > MaxImpactShown {
		im.Files.Files = im.Files.Files[:MaxImpactShown]
	}
	return im, nil
}

func impactPage(g *graph.Graph, i uint32, d int, via *graph.Page) ImpactPage {
	p := &g.Pages[i]
	ip := ImpactPage{ID: p.ID, Kind: p.Kind.String(), SymKind: p.SymKind, Path: p.Path, Depth: d, Test: p.Test}
	if p.Kind != graph.KindModule {
		ip.Line = p.Line
	}
	if p.Title != p.Path {
		ip.Title = p.Title
	}
	if via != nil {
		ip.Via, ip.viaName = via.ID, via.Name
	}
	return ip
}

// sortImpact orders a level by path and line, so answers are stable.
func sortImpact(ps []ImpactPage) {
	slices.SortFunc(ps, func(a, b ImpactPage) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.ID, b.ID))
	})
}

// pack cuts the shown entries until the rendered text fits budget tokens,
// one entry at a time from the end of a list: first every list down to a
// few entries (the deepest level first, then the files, the tests, depth 1
// and the changed definitions), then, if that is not enough, to none (one
// target stays). What was cut is counted in LeftOut.
func (im *Impact) pack(budget int) {
	im.BudgetTokens = budget
	type list struct {
		cut   func(floor int) bool
		floor int
	}
	var lists []list
	for i := len(im.Levels) - 1; i >= 1; i-- {
		l := &im.Levels[i].ImpactList
		lists = append(lists, list{func(f int) bool { return cutTo(&l.Pages, f) }, 5})
	}
	lists = append(lists, list{func(f int) bool { return cutTo(&im.Files.Files, f) }, 8})
	lists = append(lists, list{func(f int) bool { return cutTo(&im.Tests.Pages, f) }, 8})
	if len(im.Levels) > 0 {
		l := &im.Levels[0].ImpactList
		lists = append(lists, list{func(f int) bool { return cutTo(&l.Pages, f) }, 10})
	}
	lists = append(lists, list{func(f int) bool { return cutTo(&im.Targets.Pages, max(f, 1)) }, 10})
	lists = append(lists, list{func(f int) bool { return cutTo(&im.Changed, f) }, 5})
	for _, floors := range []bool{true, false} {
		for _, l := range lists {
			floor := 0
			if floors {
				floor = l.floor
			}
			for im.tokens() > budget && l.cut(floor) {
			}
		}
	}
	im.LeftOut = im.leftOut()
	im.Truncated = len(im.LeftOut) > 0
	im.UsedTokens = im.tokens()
}

// leftOut says what the shown lists lack of their totals.
func (im *Impact) leftOut() []string {
	var out []string
	note := func(what string, total, shown int) {
		if total > shown {
			out = append(out, fmt.Sprintf("%d of %d %s", total-shown, total, what))
		}
	}
	note("changed files", im.ChangedTotal, len(im.Changed))
	note("changed definitions", im.Targets.Total, len(im.Targets.Pages))
	for _, l := range im.Levels {
		note(fmt.Sprintf("referrers at depth %d", l.Depth), l.Total, len(l.Pages))
	}
	note("tests", im.Tests.Total, len(im.Tests.Pages))
	note("files", im.Files.Total, len(im.Files.Files))
	return out
}

// cutTo drops the last entry of s unless it holds floor entries or fewer.
func cutTo[T any](s *[]T, floor int) bool {
	if len(*s) <= floor {
		return false
	}
	*s = (*s)[:len(*s)-1]
	return true
}

func (im *Impact) tokens() int {
	var b strings.Builder
	im.Render(&b)
	return engine.CountTokens(b.String())
}

// Render writes the answer as text: what changed, the referrers by depth,
// the tests, the files, what was left out and how to run the tests.
func (im *Impact) Render(w io.Writer) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	switch {
	case im.Target != "":
		fmt.Fprintf(bw, "impact of %s\n", im.Target)
	default:
		base := im.DiffBase
		if base == "" {
			base = "HEAD"
		}
		fmt.Fprintf(bw, "impact of the working tree's changes against %s: %d %s, %d %s\n", base,
			im.ChangedTotal, plural(im.ChangedTotal, "file"), im.Targets.Total, plural(im.Targets.Total, "definition"))
		for _, c := range im.Changed {
			fmt.Fprintf(bw, "  %s %s%s", c.Status, c.Path, rangesText(c.Lines))
			switch {
			case c.NotIndexed:
				fmt.Fprint(bw, " (not in the index)")
			case c.Stale:
				fmt.Fprint(bw, " (changed since the last build: run wikitoolkit build for exact lines)")
			}
			fmt.Fprintln(bw)
		}
	}
	if im.Targets.Total > 0 && (im.Target == "" || im.Targets.Total > 1) {
		fmt.Fprintf(bw, "changed definitions (%s):\n", shownOf(len(im.Targets.Pages), im.Targets.Total, ""))
		for _, p := range im.Targets.Pages {
			writeImpactPage(bw, p, false)
		}
	}
	total := 0
	for _, l := range im.Levels {
		total += l.Total
		fmt.Fprintf(bw, "depth %d: %s\n", l.Depth, shownOf(len(l.Pages), l.Total, "referrer"))
		for _, p := range l.Pages {
			writeImpactPage(bw, p, true)
		}
	}
	if total == 0 && im.Tests.Total == 0 {
		fmt.Fprintln(bw, "no referrers: no indexed code references these definitions (by name through a type, import or unique name)")
	}
	if im.Beyond > 0 {
		fmt.Fprintf(bw, "beyond depth %d: %d more referrers (ask for a larger depth, at most %d)\n", im.Depth, im.Beyond, MaxImpactDepth)
	}
	if im.LooseLeftOut > 0 {
		fmt.Fprintf(bw, "left out: %d direct referrers matched by name only (a name defined several times, or a common method name; often wrong: --loose, or loose=true over MCP, follows them)\n", im.LooseLeftOut)
	}
	if im.Tests.Total > 0 {
		fmt.Fprintf(bw, "tests among the referrers (%s):\n", shownOf(len(im.Tests.Pages), im.Tests.Total, ""))
		for _, p := range im.Tests.Pages {
			writeImpactPage(bw, p, true)
		}
	}
	if im.Files.Total > 0 {
		fmt.Fprintf(bw, "files (%s):\n", shownOf(len(im.Files.Files), im.Files.Total, ""))
		for _, f := range im.Files.Files {
			test := ""
			if f.Test {
				test = ", test"
			}
			fmt.Fprintf(bw, "  %s  (%d %s, depth %d%s)\n", f.Path, f.Pages, plural(f.Pages, "page"), f.Depth, test)
		}
	}
	if left := im.leftOut(); len(left) > 0 {
		fmt.Fprintf(bw, "left out (caps of %d a list, budget of %d tokens): %s\n", MaxImpactShown, im.BudgetTokens, strings.Join(left, "; "))
	}
	if im.Check != "" {
		if im.Tests.Total > 0 {
			fmt.Fprintf(bw, "tests among the referrers: run `%s`\n", im.Check)
		} else {
			fmt.Fprintf(bw, "no test references these definitions; `%s` runs the configured tests\n", im.Check)
		}
	}
}

// shownOf says "total nouns" (noun "" for none), adding how many are
// shown when not all.
func shownOf(shown, total int, noun string) string {
	s := strconv.Itoa(total)
	if noun != "" {
		s += " " + plural(total, noun)
	}
	if shown < total {
		s += fmt.Sprintf(", %d shown", shown)
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func writeImpactPage(w io.Writer, p ImpactPage, via bool) {
	kind := p.SymKind
	if kind == "" {
		kind = p.Kind
	}
	fmt.Fprintf(w, "  %s  (%s", p.ID, kind)
	if p.Path != "" && p.Line > 0 && p.Kind != "file" {
		fmt.Fprintf(w, ", %s:%d", p.Path, p.Line)
	}
	fmt.Fprint(w, ")")
	if via && p.Test {
		fmt.Fprintf(w, " depth %d", p.Depth)
	}
	if via && p.viaName != "" && p.Depth > 0 {
		fmt.Fprintf(w, " → %s", p.viaName)
	} else if via && p.Via != "" {
		fmt.Fprintf(w, " → %s", p.Via)
	}
	fmt.Fprintln(w)
}

func rangesText(rs [][2]int) string {
	if len(rs) == 0 {
		return ""
	}
	var parts []string
	for i, r := range rs {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("… %d more", len(rs)-i))
			break
		}
		if r[0] == r[1] {
			parts = append(parts, strconv.Itoa(r[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	if len(rs) == 1 && rs[0][0] == rs[0][1] {
		return " line " + parts[0]
	}
	return " lines " + strings.Join(parts, ", ")
}

// ImpactOfDiff returns the impact of the working tree's changes against
// base (a git revision; "" = HEAD) in the git repository holding root:
// `git diff --unified=0 BASE` (run with an argv, no shell, in root) and
// the untracked files give changed line ranges, each mapped to the
// innermost symbol pages holding it, or to its file page when no symbol
// does. Only changes under root count.
func ImpactOfDiff(ctx context.Context, snap *graph.Snapshot, root, base string, opt ImpactOptions) (*Impact, error) {
	changed, err := GitChanges(ctx, root, base)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(changed))
	for i, c := range changed {
		ids[i] = graph.FileID(c.Path)
	}
	g, err := snap.Neighbourhood(ids) // the changed files' pages
	if err != nil {
		return nil, err
	}
	seeds := mapChanges(g, snap, root, changed)
	im, err := impactFrom(snap.Neighbourhood, idsOf(g, seeds), opt)
	if err != nil {
		return nil, err
	}
	im.DiffBase = base
	im.ChangedTotal = len(changed)
	for i := range changed {
		if len(changed[i].Lines) > maxChangedRanges {
			changed[i].Lines = changed[i].Lines[:maxChangedRanges]
		}
	}
	im.Changed = changed[:min(len(changed), MaxImpactShown)]
	im.pack(opt.budget())
	return im, nil
}

// mapChanges maps each changed file's line ranges to the innermost
// definitions holding them (the file page for lines outside any), marking
// files the index lacks or holds an older version of.
func mapChanges(g *graph.Graph, snap *graph.Snapshot, root string, changed []ChangedFile) []uint32 {
	byPath := map[string][]uint32{} // symbol pages per changed file
	fileOf := map[string]uint32{}
	want := map[string]bool{}
	for _, c := range changed {
		want[c.Path] = true
	}
	for i := range g.Pages {
		p := &g.Pages[i]
		if !want[p.Path] {
			continue
		}
		switch p.Kind {
		case graph.KindSymbol:
			byPath[p.Path] = append(byPath[p.Path], uint32(i))
		case graph.KindFile:
			fileOf[p.Path] = uint32(i)
		}
	}
	var seeds []uint32
	added := map[uint32]bool{}
	add := func(i uint32) {
		if !added[i] {
			added[i] = true
			seeds = append(seeds, i)
		}
	}
	for ci := range changed {
		c := &changed[ci]
		fi, ok := fileOf[c.Path]
		if !ok {
			c.NotIndexed = true
			continue
		}
		if st, ok := snap.FileStat(c.Path); ok {
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(c.Path))); err == nil && (fi.Size() != st.Size || fi.ModTime().UnixNano() != st.ModTime) {
				c.Stale = true
			}
		}
		syms := byPath[c.Path]
		if c.Status == "deleted" || c.Lines == nil {
			// A deleted file (the index still holds it) or a whole one:
			// its definitions, or the file when it has none.
			if len(syms) == 0 {
				add(fi)
			}
			for _, s := range syms {
				add(s)
			}
			continue
		}
		last := 0 // past the last definition every line maps to the file page
		for _, s := range syms {
			last = max(last, g.Pages[s].EndLine, g.Pages[s].Line)
		}
		for _, r := range c.Lines {
			if r[1] > last+1 {
				add(fi)
			}
			for line := r[0]; line <= min(r[1], last+1); line++ {
				if s, ok := innermost(g, syms, line); ok {
					add(s)
				} else if s, ok := innermost(g, syms, line+1); ok && slices.Contains(c.deletions, line) {
					// Lines deleted after a blank line between definitions
					// most likely belonged to the next one.
					add(s)
				} else {
					add(fi)
				}
			}
		}
	}
	return seeds
}

// innermost returns the symbol among syms with the smallest span holding line.
func innermost(g *graph.Graph, syms []uint32, line int) (uint32, bool) {
	best, bestSpan := uint32(0), -1
	for _, s := range syms {
		p := &g.Pages[s]
		end := max(p.EndLine, p.Line)
		if p.Line <= line && line <= end {
			if span := end - p.Line; bestSpan < 0 || span < bestSpan || (span == bestSpan && p.Line > g.Pages[best].Line) {
				best, bestSpan = s, span
			}
		}
	}
	return best, bestSpan >= 0
}

// GitChanges lists the working tree's changes against base ("" = HEAD)
// under root: `git diff --unified=0 --relative BASE --` and the untracked
// files (added, whole). A base that starts with "-" is refused (it would
// be an option).
func GitChanges(ctx context.Context, root, base string) ([]ChangedFile, error) {
	rev := base
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return nil, fmt.Errorf("diff base %q is not a git revision; give a branch, tag or commit (e.g. main, HEAD~1)", base)
	}
	out, err := git(ctx, root, "-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--relative", "--src-prefix=a/", "--dst-prefix=b/", "--unified=0", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("git diff %s: %v (impact --diff needs a git repository and a base it knows: a branch, tag or commit; before the first commit there is no HEAD)", rev, err)
	}
	changed := parseDiff(out)
	untracked, err := git(ctx, root, "ls-files", "--others", "--exclude-standard", "-z")
	if err == nil {
		for _, p := range strings.Split(string(untracked), "\x00") {
			if p != "" && graph.CheckPath(p) == nil {
				changed = append(changed, ChangedFile{Path: p, Status: "added"})
			}
		}
	}
	slices.SortFunc(changed, func(a, b ChangedFile) int { return cmp.Compare(a.Path, b.Path) })
	return changed, nil
}

// git runs git with args in dir and returns its stdout.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(firstLine(msg))
		}
		return nil, err
	}
	return out, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// parseDiff reads a `git diff --unified=0` into changed files with the
// line ranges of their new side (a pure deletion as the one line it
// follows). An added file's ranges are its whole text; a deleted file has
// none.
func parseDiff(out []byte) []ChangedFile {
	var files []ChangedFile
	var cur *ChangedFile
	oldPath := ""
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, oldPath = nil, ""
		case strings.HasPrefix(line, "--- "):
			oldPath = diffPath(line[4:], "a/")
		case strings.HasPrefix(line, "+++ "):
			p := diffPath(line[4:], "b/")
			status := "modified"
			switch {
			case p == "":
				p, status = oldPath, "deleted"
			case oldPath == "":
				status = "added"
			}
			if p == "" || graph.CheckPath(p) != nil {
				cur = nil
				continue
			}
			files = append(files, ChangedFile{Path: p, Status: status})
			cur = &files[len(files)-1]
		case strings.HasPrefix(line, "@@ ") && cur != nil && cur.Status != "deleted":
			if r, del, ok := hunkRange(line); ok {
				cur.Lines = append(cur.Lines, r)
				if del {
					cur.deletions = append(cur.deletions, r[0])
				}
			}
		}
	}
	for i := range files {
		if files[i].Lines == nil && files[i].Status != "deleted" {
			files[i].Lines = [][2]int{} // a mode-only or binary change: no lines
		}
	}
	return files
}

// diffPath returns the path of a ---/+++ line without its a/ or b/
// prefix, unquoting C-quoted names; "" for /dev/null.
func diffPath(s, prefix string) string {
	s = strings.TrimSuffix(s, "\t")
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return strings.TrimPrefix(s, prefix)
}

// hunkRange parses "@@ -a,b +c,d @@" into the new side's lines [c, c+d-1]
// ([c, c] and del when d is 0: the deletion follows line c).
func hunkRange(line string) (r [2]int, del, ok bool) {
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
		return r, false, false
	}
	start, count, hasCount := strings.Cut(f[2][1:], ",")
	c, err := strconv.Atoi(start)
	if err != nil || c < 0 {
		return r, false, false
	}
	d := 1
	if hasCount {
		if d, err = strconv.Atoi(count); err != nil || d < 0 {
			return r, false, false
		}
	}
	if d == 0 {
		return [2]int{max(c, 1), max(c, 1)}, true, true
	}
	return [2]int{c, c + d - 1}, false, true
}
