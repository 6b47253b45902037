package engine

import (
	"strings"
	"testing"
)

// TestMemberTermsKeepLookups checks memberTerms: a member-only question
// made only of the names it writes keeps their whole-name weight, and so
// does the name a question opens with; one describing a definition
// weighs the other names memberNameShare, and gains its stop words at
// memberStopShare and its numbers as words (addStopWords, addNumbers),
// which a lookup does not.
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
			was := weight(analyze(c.q), qt.term)
			switch {
			case was < 0 && isLookup(&a):
				t.Errorf("%q: a lookup's term %s added", c.q, qt.term)
			case was < 0:
				stop := strings.HasPrefix(qt.term, "_") && stopWords[qt.term[1:]]
				if stop && qt.weight != weightWord*memberStopShare ||
					allDigits(qt.term) && qt.weight != weightWord || !stop && !allDigits(qt.term) {
					t.Errorf("%q: term %s added at %v", c.q, qt.term, qt.weight)
				}
			case qt.role != roleExact && qt.weight != was:
				t.Errorf("%q: word term %s changed", c.q, qt.term)
			}
		}
	}
}

// TestMemberTermsAddStopWordsAndNumbers: a describing member-only question
// gains its prose stop words and its short numbers as words; the stop
// word pieces of a name it writes as code are not added, nor a long
// number.
func TestMemberTermsAddStopWordsAndNumbers(t *testing.T) {
	a := analyze("Get the value before ShouldBindWith as an integer 64, not 20240101")
	memberTerms(&a)
	has := map[string]float64{}
	for _, qt := range a.terms {
		has[qt.term] = qt.weight
	}
	for term, w := range map[string]float64{"_get": weightWord * memberStopShare, "_before": weightWord * memberStopShare,
		"_the": weightWord * memberStopShare, "_an": weightWord * memberStopShare, "64": weightWord} {
		if has[term] != w {
			t.Errorf("term %q weighs %v, want %v (terms %+v)", term, has[term], w, a.terms)
		}
	}
	for _, term := range []string{"_with", "with", "20240101"} {
		if _, ok := has[term]; ok {
			t.Errorf("term %q added", term)
		}
	}
	b := analyze("TaxRate")
	n := len(b.terms)
	memberTerms(&b)
	if len(b.terms) != n {
		t.Errorf("a lookup gained terms: %+v", b.terms)
	}
}
