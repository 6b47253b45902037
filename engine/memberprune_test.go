package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestMemberPrunedEqualsExact: for every question of the pruning corpus
// asked for symbols only (several budgets, a third with a focus file),
// the pruned member-only answer is the exact one — every stub, its score
// and snippet — with More at most the exact count, and Query's answer
// (pruned, or run again) is the same; a good share of the questions is
// pruned, so the test exercises the bound.
func TestMemberPrunedEqualsExact(t *testing.T) {
	ix, qs := prunedIndex(t)
	qs = append(slices.Clip(qs), memberQuestions()...)
	var focus []string
	for _, q := range qs {
		if strings.HasSuffix(q, ".go") && strings.Contains(q, "/") {
			focus = append(focus, q)
		}
	}
	pruned, failed := 0, 0
	for i, q := range qs {
		opt := Options{BudgetTokens: []int{2000, 2000, 600, 8000}[i%4], Kinds: []graph.Kind{graph.KindSymbol}}
		if i%3 == 1 {
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
	t.Logf("%d questions: %d pruned (More a lower bound), %d failed the check", len(qs), pruned, failed)
	if pruned < len(qs)/5 {
		t.Errorf("only %d of %d member-only questions pruned: the test no longer exercises pruning", pruned, len(qs))
	}
}

// TestMemberPruneScoresFewerPages: member-only questions are pruned as
// file answers are: Query (pruned, or run again when the bound does not
// hold) scores far fewer pages than exact evaluation, counted, not timed.
func TestMemberPruneScoresFewerPages(t *testing.T) {
	ix, qs := prunedIndex(t)
	opt := Options{Kinds: []graph.Kind{graph.KindSymbol}}
	before := ix.stats.pages.Load()
	for _, q := range qs {
		runQuery(ix, q, opt, false)
	}
	exact := ix.stats.pages.Load() - before
	before = ix.stats.pages.Load()
	for _, q := range qs {
		if _, err := ix.Query(context.Background(), q, opt); err != nil {
			t.Fatal(err)
		}
	}
	got := ix.stats.pages.Load() - before
	t.Logf("pages scored over %d member-only questions: exact %d, Query %d (%.0f%%)", len(qs), exact, got, 100*float64(got)/float64(exact))
	if got*10 > exact*7 {
		t.Errorf("Query scored %d pages, exact %d: want at most 70%%", got, exact)
	}
}

// memberQuestions are prose questions naming files by their words (the
// files of pruneGraph are named by one word: cache_12.go), so that the
// name factor, read only for the groups near the head (fileSignals),
// applies to groups near the bound (the name band, memberprune.go).
func memberQuestions() []string {
	r := rand.New(rand.NewPCG(11, 12))
	verbs := []string{"load", "save", "parse", "render", "merge"}
	nouns := []string{"user", "order", "invoice", "session", "queue", "report"}
	words := []string{"retry", "cache", "flush", "token", "metric", "worker", "record", "template", "policy", "ledger"}
	var qs []string
	for range 120 {
		qs = append(qs, fmt.Sprintf("how do we %s the %s %s of the %s", verbs[r.IntN(len(verbs))], nouns[r.IntN(len(nouns))],
			words[r.IntN(len(words))], words[r.IntN(len(words))]))
	}
	return qs
}
