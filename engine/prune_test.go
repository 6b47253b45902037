package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestGroupFactorBound: no combination of the factors applied to a group
// after accumulation (kind and file class, file signals, the neighbour
// boost) for a group no question signal names exceeds groupFactorBound,
// the bound pruning relies on (prune.go).
func TestGroupFactorBound(t *testing.T) {
	bound := groupFactorBound()
	worst := 0.0
	for k := range uint8(numKinds) {
		for fl := range uint8(1 << 4) {
			var flags uint8
			for i, f := range []uint8{flagDoc, flagAux, flagData, flagTest} {
				if fl&(1<<i) != 0 {
					flags |= f
				}
			}
			ix := &Index{kind: []uint8{k}, flags: []uint8{flags}}
			// fileSignals: each file signal applies or not.
			for fs := range 1 << 3 {
				g := groupAcc{score: 1}
				ix.applyFactors(&g, &groupSignals{}, nil)
				for i, f := range []float64{nameFactor, helperFactor, headerFactor} {
					if fs&(1<<i) != 0 {
						g.score *= f
					}
				}
				g.score *= 1 + neighbourBoost/1 // the best-boosted neighbour (boostNeighbours, k = 0)
				worst = max(worst, g.score)
				if g.score > bound*(1+1e-12) {
					t.Errorf("kind %d flags %#x file signals %03b: factors %.4f exceed groupFactorBound %.4f", k, flags, fs, g.score, bound)
				}
			}
		}
	}
	// An added query-time group page (a memory) is never pruned; the
	// bound still covers memoryFactor.
	if memoryFactor > bound {
		t.Errorf("memoryFactor %.2f exceeds groupFactorBound %.4f", memoryFactor, bound)
	}
	t.Logf("worst factor product %.4f, bound %.4f", worst, bound)
}

var pruneCorpus struct {
	once sync.Once
	ix   *Index
	qs   []string
	err  error
}

// pruneGraph is a repository of 600 files of 6 functions each, named
// verb+Noun+digit from a small vocabulary: each whole name is defined in
// about 60 files and each of its words in hundreds, as a name with digits
// is against its words in the 100k-file benchmark (82 pages against 67k).
func pruneGraph() *graph.Graph { return pruneGraphN(600) }

// pruneGraphN is pruneGraph with files files.
func pruneGraphN(files int) *graph.Graph {
	r := rand.New(rand.NewPCG(7, 8))
	verbs := []string{"load", "save", "parse", "render", "merge"}
	nouns := []string{"user", "order", "invoice", "session", "queue", "report"}
	words := []string{"retry", "cache", "flush", "token", "metric", "worker", "record", "template", "policy", "ledger"}
	var pages []graph.Page
	var edges []graph.Edge
	for f := range files {
		dir := fmt.Sprintf("svc%d/%s", f/40, nouns[f%len(nouns)])
		p := fmt.Sprintf("%s/%s_%d.go", dir, words[r.IntN(len(words))], f)
		if f%10 == 0 {
			p = fmt.Sprintf("%s/%s_%d_test.go", dir, words[r.IntN(len(words))], f)
		}
		fi := uint32(len(pages))
		pages = append(pages, graph.Page{ID: graph.FileID(p), Kind: graph.KindFile, Title: p, Name: path.Base(p), Path: p, Lang: "go",
			Doc: "Package " + words[r.IntN(len(words))] + " " + words[r.IntN(len(words))], Test: f%10 == 0})
		for s := range 6 {
			v, n := verbs[r.IntN(len(verbs))], nouns[r.IntN(len(nouns))]
			// Two variants of a name; a run of more than maxJoinDigits
			// digits stays out of the words (pieceTerms), as it did before
			// digit runs joined their letters.
			name := fmt.Sprintf("%s%s%05d", v, strings.ToUpper(n[:1])+n[1:], r.IntN(2))
			doc := name + " " + words[r.IntN(len(words))] + " the " + n + " " + words[r.IntN(len(words))]
			si := uint32(len(pages))
			pages = append(pages, graph.Page{ID: graph.SymbolID(p, name), Kind: graph.KindSymbol, Title: "func " + name + "(ctx context.Context) error",
				Name: name, Qualified: name, SymKind: "func", Path: p, Line: 10 + 20*s, EndLine: 25 + 20*s, Lang: "go", Doc: doc,
				Idents: []string{verbs[r.IntN(len(verbs))] + strings.ToUpper(n[:1]) + n[1:]}, Test: f%10 == 0})
			edges = append(edges, graph.Edge{From: fi, To: si, Type: graph.Contains})
			if f > 0 {
				edges = append(edges, graph.Edge{From: si, To: uint32(r.IntN(int(fi))), Type: graph.References})
			}
		}
	}
	return graph.NewGraph(pages, edges)
}

// prunedIndex is pruneGraph's index with questions of the kinds mcpbench
// asks: names, pairs of names, prose, paths, file names.
func prunedIndex(t *testing.T) (*Index, []string) {
	old, oldKeep := pruneMinPostings, boundKeep
	pruneMinPostings, boundKeep = 100, 300
	t.Cleanup(func() { pruneMinPostings, boundKeep = old, oldKeep })
	pruneCorpus.once.Do(func() {
		g := pruneGraph()
		ix := NewIndex(g)
		r := rand.New(rand.NewPCG(9, 10))
		var names, paths []string
		for i := range g.Pages {
			p := &g.Pages[i]
			switch p.Kind {
			case graph.KindSymbol:
				names = append(names, p.Name)
			case graph.KindFile:
				paths = append(paths, p.Path)
			}
		}
		prose := []string{"how are records validated", "where are retries configured", "how is a session token refreshed",
			"what happens when the queue is full", "how does the cache get flushed", "which policy schedules the worker",
			"how are metrics reported", "template rendering of reports", "ledger of the invoice"}
		var qs []string
		for len(qs) < 240 {
			switch len(qs) % 6 {
			case 0, 1:
				qs = append(qs, names[r.IntN(len(names))])
			case 2:
				qs = append(qs, names[r.IntN(len(names))]+" "+names[r.IntN(len(names))])
			case 3:
				qs = append(qs, prose[r.IntN(len(prose))])
			case 4:
				qs = append(qs, paths[r.IntN(len(paths))])
			case 5:
				qs = append(qs, path.Base(paths[r.IntN(len(paths))]))
			}
		}
		pruneCorpus.ix, pruneCorpus.qs = ix, qs
	})
	if pruneCorpus.err != nil {
		t.Fatal(pruneCorpus.err)
	}
	return pruneCorpus.ix, pruneCorpus.qs
}

// answerJSON is an answer as the MCP tool sends it, without the fields
// pruning may change: More (a lower bound once pruned), MoreAtLeast and
// UsedTokens (the "more" line's length).
func answerJSON(t *testing.T, r Result) string {
	r.More, r.MoreAtLeast, r.UsedTokens = 0, false, 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runQuery answers q with pruning on or off, and says whether the pruned
// answer held (ok false: Query would run it again without pruning).
func runQuery(ix *Index, q string, opt Options, prune bool) (Result, bool) {
	budget := opt.BudgetTokens
	if budget <= 0 {
		budget = DefaultBudgetTokens
	}
	res := Result{Query: q, BudgetTokens: budget, Results: []Stub{}}
	a := analyze(q)
	ix.exactSignal(&res, a.idents, opt.Extra)
	pm := pruneMode{}
	if prune {
		pm = firstPrune(opt)
	}
	out, po, _ := ix.query(context.Background(), q, opt, a, ix.signals(a, opt), res, pm)
	return out, po == pruneHeld
}

// TestPrunedEqualsExact: for every question (several budgets), the answer
// with the weakest terms pruned is the exact one — every result, its
// score, symbols and snippet — with More at most the exact count, and
// Query's answer (pruned, or run again) is the same; pruning applies to a
// good share of the questions, so the test exercises it. A third of the
// questions have a focus file (a signal no term carries).
func TestPrunedEqualsExact(t *testing.T) {
	ix, qs := prunedIndex(t)
	var focus []string
	for _, q := range qs {
		if strings.HasSuffix(q, ".go") && strings.Contains(q, "/") {
			focus = append(focus, q)
		}
	}
	pruned, failed := 0, 0
	b0 := ix.stats.bounded.Load()
	for i, q := range qs {
		opt := Options{BudgetTokens: []int{2000, 2000, 600, 8000}[i%4]}
		if i%3 == 1 { // a focus file, boosted whatever its terms
			opt.Focus = []string{focus[i%len(focus)]}
		}
		exact, _ := runQuery(ix, q, opt, false)
		pr, ok := runQuery(ix, q, opt, true)
		if !ok {
			failed++
		} else {
			if got, want := answerJSON(t, pr), answerJSON(t, exact); got != want {
				t.Errorf("%q (budget %d): pruned answer\n%s\nwant\n%s", q, opt.BudgetTokens, got, want)
				continue
			}
			if pr.More > exact.More || pr.MoreAtLeast && pr.More == 0 {
				t.Errorf("%q: pruned More %d (at least: %v), exact %d", q, pr.More, pr.MoreAtLeast, exact.More)
			}
			if pr.MoreAtLeast {
				pruned++
			}
		}
		got, err := ix.Query(context.Background(), q, opt)
		if err != nil {
			t.Fatal(err)
		}
		if answerJSON(t, got) != answerJSON(t, exact) {
			t.Errorf("%q: Query's answer differs from the exact one", q)
		}
	}
	bounded := ix.stats.bounded.Load() - b0
	t.Logf("%d questions: %d pruned (More a lower bound), %d failed the check; %d answers pruned by planBound", len(qs), pruned, failed, bounded)
	if bounded < int64(len(qs)/20) {
		t.Errorf("only %d answers pruned by planBound: the test no longer exercises it", bounded)
	}
	if pruned < len(qs)/5 {
		t.Errorf("only %d of %d questions pruned: the test no longer exercises pruning", pruned, len(qs))
	}
}

// TestPruneScoresFewerPages: on a corpus whose identifier questions hold a
// rare whole identifier and two common words, pruning scores (touches and
// folds) far fewer pages than exact evaluation, counted, not timed.
func TestPruneScoresFewerPages(t *testing.T) {
	ix, qs := prunedIndex(t)
	count := func(prune bool) int64 {
		before := ix.stats.pages.Load()
		for _, q := range qs {
			if _, ok := runQuery(ix, q, Options{}, prune); !ok {
				runQuery(ix, q, Options{}, false)
			}
		}
		return ix.stats.pages.Load() - before
	}
	exact, pruned := count(false), count(true)
	t.Logf("pages scored over %d questions: exact %d, pruned %d (%.0f%%)", len(qs), exact, pruned, 100*float64(pruned)/float64(exact))
	if pruned*10 > exact*7 {
		t.Errorf("pruning scored %d pages, exact %d: want at most 70%%", pruned, exact)
	}
}

func ExampleResult_moreAtLeast() {
	fmt.Print(moreLine(48527, true))
	// Output: … 48527+ more matched; raise the budget or narrow the question
}

// TestPruneModeSequence: a question runs at most three times pruned —
// planPrune's tail bound, planBound's boundKeep groups, boundWiden times
// as many when the bounded answer reached into the bound (also after a
// failed tail bound: stack traces at 100k files hold there instead of
// running exactly) — and then exactly.
func TestPruneModeSequence(t *testing.T) {
	wide := pruneMode{keep: boundWiden * boundKeep, retry: true}
	for _, c := range []struct {
		outcomes []pruneOutcome
		want     []pruneMode
	}{
		{[]pruneOutcome{pruneTailFailed, pruneBoundReach, pruneBoundReach}, []pruneMode{{keep: boundKeep, retry: true}, wide, {}}},
		{[]pruneOutcome{pruneTailFailed, pruneBoundTop}, []pruneMode{{keep: boundKeep, retry: true}, {}}},
		{[]pruneOutcome{pruneBoundReach, pruneBoundReach}, []pruneMode{wide, {}}},
		{[]pruneOutcome{pruneBoundTop}, []pruneMode{{}}},
		{[]pruneOutcome{pruneTailFailed, pruneTailFailed}, []pruneMode{{keep: boundKeep, retry: true}, {}}},
	} {
		pm := firstPrune(Options{})
		for i, po := range c.outcomes {
			pm = pm.next(po)
			if pm != c.want[i] {
				t.Errorf("outcomes %v: after %d, mode %+v, want %+v", c.outcomes, i+1, pm, c.want[i])
			}
		}
		if pm == (pruneMode{}) && pm.next(pruneBoundReach) != (pruneMode{}) {
			t.Errorf("outcomes %v: an exact run is run again", c.outcomes)
		}
	}
	if pm := firstPrune(Options{Kinds: []graph.Kind{graph.KindSymbol}}).next(pruneTailFailed); pm != (pruneMode{}) {
		t.Errorf("a member-only question after a failed tail bound: mode %+v, want exact", pm)
	}
}

// TestTailTermsDecodeMarkedGroups: a pruned question's tail terms whose
// group impacts the index keeps decode only the postings of the marked
// groups (tailTabs, accumulateGroups): fewer postings than with the group
// impacts unavailable (counted, not timed), and the same answers, in one
// segment and in six (every segment's group impacts kept by the second
// asking).
func TestTailTermsDecodeMarkedGroups(t *testing.T) {
	old := pruneMinPostings
	pruneMinPostings = 100
	t.Cleanup(func() { pruneMinPostings = old })
	g := pruneGraph()
	var names []string
	for _, p := range g.Pages {
		if p.Kind == graph.KindSymbol && len(names) < 400 {
			names = append(names, p.Name)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	common := []string{"retry", "cache", "token", "record", "user", "session"}
	var qs []string
	for range 40 {
		qs = append(qs, names[r.IntN(len(names))]+" "+names[r.IntN(len(names))]+" "+common[r.IntN(len(common))])
	}
	segs := splitSegments(t, g, 6, 3, 0, 0).segs
	run := func(kept, segmented bool) (postings, groups int64, answers []string) {
		ix := NewIndex(g)
		if segmented {
			var err error
			if ix, err = OpenSegments(segs); err != nil {
				t.Fatal(err)
			}
		}
		if !kept {
			ix.gimpBytes.Store(math.MaxInt64 / 2) // as if the limit were reached: no group impacts for tail terms
		}
		// Asked twice: a term's group impacts are computed the second time
		// (keptGroupImpacts), in every segment that holds it.
		for range 2 {
			answers = answers[:0]
			for _, q := range qs {
				res, err := ix.Query(context.Background(), q, Options{})
				if err != nil {
					t.Fatal(err)
				}
				answers = append(answers, answerJSON(t, res))
			}
		}
		return ix.stats.postings.Load(), ix.stats.skippedGroups.Load(), answers
	}
	var one int64 // the postings one segment decoded with group impacts
	for _, segmented := range []bool{false, true} {
		p0, _, want := run(false, segmented)
		p1, skipped, got := run(true, segmented)
		t.Logf("segmented %v, %d questions: %d postings decoded without the tail terms' group impacts, %d with (%d groups passed over)", segmented, len(qs), p0, p1, skipped)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("segmented %v, %q: answer\n%s\nwant\n%s", segmented, qs[i], got[i], want[i])
			}
		}
		// The count holds the essential terms' postings too (decoded in full
		// both ways), and the first asking's: 600 files give 682k → 522k; at 100k files a question
		// naming two identifiers decodes 42k postings instead of 513k.
		if p1*100 > p0*85 {
			t.Errorf("segmented %v: with group impacts the questions decoded %d postings, without %d: want at most 85%%", segmented, p1, p0)
		}
		// Six segments keep every segment's group impacts by the second
		// asking, as one does: about as few postings (545k when a term's
		// were asked for segment by segment, one more each asking).
		if !segmented {
			one = p1
		} else if p1*100 > one*101 {
			t.Errorf("six segments decoded %d postings with group impacts, one segment %d: want within 1%%", p1, one)
		}
	}
}

// TestCommonTermsDecodeReachedGroups: in a run without pruning, a common
// term decodes only the postings of the groups its question's rarer terms
// reached (restrictPlan, accumulateGroups) where the index keeps its
// group impacts (here computed beforehand): fewer postings than with them off (groupTabsOff;
// counted, not timed), and the same answers, More included.
func TestCommonTermsDecodeReachedGroups(t *testing.T) {
	old, oldFloor := pruneMinPostings, commonTermFloor
	pruneMinPostings, commonTermFloor = 1<<40, 100 // nothing pruned; common terms above 100 pages
	t.Cleanup(func() { pruneMinPostings, commonTermFloor, groupTabsOff = old, oldFloor, false })
	g := pruneGraph()
	var names []string
	for _, p := range g.Pages {
		if p.Kind == graph.KindSymbol && len(names) < 400 {
			names = append(names, p.Name)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	common := []string{"retry", "cache", "token", "record", "user", "session"}
	var qs []string
	for range 40 {
		qs = append(qs, names[r.IntN(len(names))]+" "+common[r.IntN(len(common))]+" "+common[r.IntN(len(common))])
	}
	ix := NewIndex(g)
	run := func(off bool) (postings, groups int64, answers []string) {
		groupTabsOff = off
		p0, g0 := ix.stats.postings.Load(), ix.stats.skippedGroups.Load()
		for _, q := range qs {
			res, err := ix.Query(context.Background(), q, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.MoreAtLeast {
				t.Fatalf("%q was pruned: the test means exact runs", q)
			}
			b, _ := json.Marshal(res)
			answers = append(answers, string(b))
		}
		return ix.stats.postings.Load() - p0, ix.stats.skippedGroups.Load() - g0, answers
	}
	p0, _, want := run(true)
	// The common terms' group impacts kept, as a bounded question would
	// have left them (restrictPlan computes none).
	for _, q := range qs {
		for _, qt := range analyze(q).terms {
			if ref, ok := ix.lookupTerm(qt.term); ok && ix.df(ref) > commonTermFloor {
				for _, l := range ref.locs {
					ix.groupImpacts(int(l.seg), l.id)
				}
			}
		}
	}
	p1, skipped, got := run(false)
	t.Logf("%d questions: %d postings decoded with the common terms' group impacts off, %d on (%d groups passed over)", len(qs), p0, p1, skipped)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%q: answer\n%s\nwant\n%s", qs[i], got[i], want[i])
		}
	}
	if skipped == 0 || p1*100 > p0*85 {
		t.Errorf("with group impacts the questions decoded %d postings, without %d (%d groups passed over): want at most 85%%", p1, p0, skipped)
	}
}
