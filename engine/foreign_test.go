package engine

import "testing"

// TestDemoteForeign checks which qualified names count as a library's
// (foreign.go): only a package's exported name whose qualifier the
// repository does not hold and whose last part no top-level definition
// carries.
func TestDemoteForeign(t *testing.T) {
	ix, err := Load(fixtureSnapshot(t, "ranking"))
	if err != nil {
		t.Fatal(err)
	}
	weight := func(q, term string) (before, after float64) {
		a := analyze(q)
		for _, qt := range a.terms {
			if qt.term == term {
				before = qt.weight
			}
		}
		ix.demoteForeign(&a)
		for _, qt := range a.terms {
			if qt.term == term {
				after = qt.weight
			}
		}
		if before == 0 {
			t.Fatalf("%q: no term %s", q, term)
		}
		return before, after
	}
	if b, a := weight("use `collections.Merge`", "=merge"); a != b*foreignShare {
		t.Errorf("collections.Merge: =merge %v → %v, want × %v (Stockroom.Merge is a method, collections no name of the fixture)", b, a, foreignShare)
	}
	for _, c := range []struct{ q, term, why string }{
		{"use `sr.Stockroom`", "=stockroom", "a top-level class: sr may be a module alias"},
		{"use `collections.merge`", "=merge", "an attribute, not a package's exported name"},
		{"use `Shelf.Merge`", "=merge", "a type's method"},
		{"use `shop.Merge`", "=merge", "shop names a module (a directory) of the repository"},
	} {
		if b, a := weight(c.q, c.term); a != b {
			t.Errorf("%s: %s %v → %v, want it kept (%s)", c.q, c.term, b, a, c.why)
		}
	}
}
