package engine

import (
	"context"
	"testing"
)

// TestStubAllocations guards stubText: a file stub listing its matching
// symbols copies its text into one allocation, and its symbol names and
// lines into two slices of their size (a copy a string and lists grown by
// append took a dozen), and holds the text its records give.
func TestStubAllocations(t *testing.T) {
	ix := NewIndex(testGraph(t))
	const q = "Ranker score Query"
	r := queryRun{q: q, a: analyze(q)}
	r.sig = ix.signals(r.a, r.opt)
	r.s = ix.getScratch()
	defer ix.putScratch(r.s)
	ix.scoreTerms(&r, pruneMode{})
	ix.foldGroups(r.s)
	ix.scoreGroups(&r)
	order, _, _ := ix.rankGroups(&r)
	g := &r.s.groups[order[0]]
	st, ok := ix.stub(g, nil, r.s, 0xff, r.opt, r.a, r.tps)
	if !ok || st.ID != "file:engine/rank.go" || len(st.Symbols) < 2 || st.Path != "engine/rank.go" || st.Snippet == "" {
		t.Fatalf("first stub %+v, want file:engine/rank.go with its path, snippet and symbols", st)
	}
	for i, m := range listMembers(g, r.s, make([]uint32, 0, groupListMax)) {
		if name, line := ix.symbolName(m); st.Symbols[i] != name || st.symLines[i] != line {
			t.Errorf("symbol %d: %q:%d, want %q:%d", i, st.Symbols[i], st.symLines[i], name, line)
		}
	}
	if rec := ix.record(g.page); st.Title != rec.titleCopy() || st.Snippet != rec.snippetCopy() || st.ID != rec.id {
		t.Errorf("stub %+v does not hold its record's text %+v", st, rec)
	}
	n := testing.AllocsPerRun(50, func() { ix.stub(g, nil, r.s, 0xff, r.opt, r.a, r.tps) })
	if n > 3 {
		t.Errorf("a file stub listing %d symbols allocates %.0f times, want at most 3", len(st.Symbols), n)
	}
	perQuery := testing.AllocsPerRun(50, func() { ix.Query(context.Background(), q, Options{}) })
	t.Logf("%.0f allocations a question, %.0f a file stub", perQuery, n)
}

// TestListMembers checks listMembers's selection against sorting every
// matching member: the best groupListMax scoring at least groupListShare
// of the best, by score then page, ties included.
func TestListMembers(t *testing.T) {
	s := &scratch{score: make([]float32, 64), next: make([]uint32, 64)}
	scores := []float32{3, 1, 3, 2, 0.5, 3, 1.5, 2, 3, 1.4, 3, 3, 2.9, 1.5}
	for k := 1; k <= len(scores); k++ {
		g := groupAcc{}
		var want []uint32
		for i, sc := range scores[:k] {
			p := uint32(10 + 3*i)
			s.score[p] = sc
			s.next[p] = g.head
			g.head = p + 1
			g.top[0] = max(g.top[0], sc)
			want = append(want, p)
		}
		// Sorting all, as the selection must agree with.
		for i := range want {
			for j := i + 1; j < len(want); j++ {
				a, b := want[i], want[j]
				if s.score[b] > s.score[a] || s.score[b] == s.score[a] && b < a {
					want[i], want[j] = b, a
				}
			}
		}
		n := 0
		for n < len(want) && n < groupListMax && float64(s.score[want[n]]) >= groupListShare*float64(g.top[0]) {
			n++
		}
		got := listMembers(&g, s, make([]uint32, 0, groupListMax))
		if len(got) != n {
			t.Fatalf("%d members: listed %v, want %v", k, got, want[:n])
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%d members: listed %v, want %v", k, got, want[:n])
			}
		}
		clear(s.score)
		clear(s.next)
	}
}
