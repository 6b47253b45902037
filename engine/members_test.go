package engine

import "testing"

// TestMemberTermsKeepLookups checks memberTerms: a member-only question
// made only of the names it writes keeps their whole-name weight, and so
// does the name a question opens with; one describing a definition
// weighs the other names memberNameShare.
func TestMemberTermsKeepLookups(t *testing.T) {
	weight := func(a analysis, term string) float64 {
		for _, qt := range a.terms {
			if qt.term == term {
				return qt.weight
			}
		}
		return -1
	}
	for _, c := range []struct {
		q, term string
		lookup  bool
	}{
		{"TaxRate", "=taxrate", true},
		{"`Context.Value`", "=context.value", true},
		{"router.Handle `Engine`", "=engine", true},
		{"Add the sales tax of a TaxRate to each line total.", "=taxrate", false},
		{"is a shortcut for router.Handle", "=router.handle", false},
		{"returns the value associated with the key", "=value", false},
		{"MustBindWith binds the passed struct pointer", "=mustbindwith", true}, // the subject
		{"`Context.Value` returns the value for key", "=context.value", true},   // the subject
		{"binds the passed struct pointer with MustBindWith", "=mustbindwith", false},
	} {
		a := analyze(c.q)
		before := weight(a, c.term)
		if before <= 0 {
			t.Fatalf("%q: no term %s in %+v", c.q, c.term, a.terms)
		}
		memberTerms(&a)
		want := before
		if !c.lookup {
			want = before * memberNameShare
		}
		if got := weight(a, c.term); got != want {
			t.Errorf("%q: %s weighs %v after memberTerms, want %v (lookup %v)", c.q, c.term, got, want, c.lookup)
		}
		for _, qt := range a.terms {
			if qt.weight <= 0 {
				t.Errorf("%q: term %s left at weight %v", c.q, qt.term, qt.weight)
			}
			if qt.role != roleExact && qt.weight != weight(analyze(c.q), qt.term) {
				t.Errorf("%q: word term %s changed", c.q, qt.term)
			}
		}
	}
}
