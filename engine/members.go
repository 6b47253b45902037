package engine

import (
	"slices"
	"strings"
)

// memberTerms adjusts a member-only question's terms (Query calls it
// before scoring, so the prune plans' ceilings read the same weights).
//
// A member-only question that describes a definition ("writes data with
// custom ContentType", "is a shortcut for router.Handle") writes other
// definitions' names as context: what the described one takes, calls or
// implements. Weighed as a name written as code (weightExactCode, and
// wExactName in the index), such a name made its own definition the
// answer over the one the sentence describes, whose doc holds the
// sentence's words (RANK7: 107 of 182 misses). Here every whole-name
// term weighs memberNameShare of its weight; its pieces (ContentType →
// content, type), already terms of the question, still count. A
// question made only of the names it writes (a lookup: "ContentType",
// "Context.Value") keeps them whole: there the name is what is asked; so
// does the name a question opens with, its subject (subjectTerms). The
// question's numbers are words of their own (addNumbers), and its stop
// words meet the names that hold them (addStopWords).
func memberTerms(a *analysis) {
	if isLookup(a) {
		return
	}
	subject := subjectTerms(a)
	for k, t := range a.terms {
		if t.role == roleExact && !slices.Contains(subject, t.term) {
			a.terms[k].weight *= memberNameShare
		}
	}
	addNumbers(a)
	addStopWords(a)
}

// addNumbers adds the numbers of at most maxJoinDigits digits a question
// writes as words of their own ("as an integer 64") as prose words: the
// index holds a page's own numbers (textPieceTerms), and a definition
// described by its width or code (GetInt64 "returns … as an integer
// 64", beside GetInt, GetInt8 … whose docs say the same otherwise) is
// told apart by it. Only a member-only question that is no lookup reads
// them.
func addNumbers(a *analysis) {
	for _, tok := range identTokens(a.phrase) {
		if !allDigits(tok) || len(tok) > maxJoinDigits {
			continue
		}
		if slices.ContainsFunc(a.terms, func(t queryTerm) bool { return t.term == tok }) {
			continue
		}
		a.terms = append(a.terms, queryTerm{term: tok, weight: weightWord, role: roleWord})
	}
}

// addStopWords adds the question's prose stop words (whole words, not the
// pieces of a name it writes as code: "with" of ShouldBindWith lifted
// every ShouldBindBodyWith*) as words at memberStopShare of a prose
// word's weight: the index holds them only where a definition's name
// has them (nameStopWords, as "_get"), so "Get an attribute by name" meets
// _AppCtxGlobals.get before setdefault, and "run before each request"
// before_request before after_request.
func addStopWords(a *analysis) {
	for _, tok := range identTokens(a.phrase) {
		p := strings.ToLower(tok)
		if len(p) < 2 || !stopWords[p] || slices.ContainsFunc(a.terms, func(t queryTerm) bool { return t.term == stopTerm(p) }) {
			continue
		}
		a.terms = append(a.terms, queryTerm{term: stopTerm(p), weight: weightWord * memberStopShare, role: roleWord})
	}
}

// isLookup reports whether a question is made only of names: a single
// word, or words that are all pieces of the identifiers it writes as code.
func isLookup(a *analysis) bool {
	ws, scratch := wordTerms(nil, a.phrase, nil)
	if len(ws) <= 1 {
		return true
	}
	var names []string
	for _, id := range a.idents {
		names, scratch = wordTerms(names, id, scratch)
	}
	for _, w := range ws {
		if !slices.Contains(names, w) {
			return false
		}
	}
	return true
}

// subjectTerms returns the whole-name terms of the name a question opens
// with, when it opens with one written as code (an identifier, a
// qualified or backticked name): "MustBindWith binds the passed struct
// pointer …", the way a doc comment names its subject.
func subjectTerms(a *analysis) []string {
	q := strings.TrimLeft(a.phrase, " \t\r\n`")
	for _, id := range a.idents {
		if !strings.HasPrefix(q, id) {
			continue
		}
		id = strings.TrimSuffix(id, "()")
		parts := nameParts(id)
		out := []string{exactTerm(strings.Join(parts, ".")), exactTerm(parts[len(parts)-1])}
		if n := len(parts); n >= 2 {
			out = append(out, exactTerm(parts[n-2]+"."+parts[n-1]), exactTerm(parts[n-2]))
		}
		return out
	}
	return nil
}
