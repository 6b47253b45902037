package engine

import (
	"path"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// field is one BM25F field of a page.
type field uint8

const (
	fName field = iota
	fExactName
	fPath
	fTitle
	fDoc
	fIdents
	fIdentExact
	fSymName
	fSymExact
	fSymText
	fSymIdents
	fSymIdentExact
	fStr    // words and key-like names in the page's string literals
	fSymStr // ... its symbols' (a file page's member field)
	numFields
)

// fieldWeight and fieldB are indexed by field; see score.go for the values.
var (
	fieldWeight = [numFields]float64{wName, wExactName, wPath, wTitle, wDoc, wIdents, wIdentExact,
		wSymName, wSymExact, wSymText, wSymIdents, wSymIdentExact, wStr, wSymStr}
	fieldB = [numFields]float64{bName, bName, bPathB, bText, bText, bBag, bBag,
		bBag, bBag, bBag, bBag, bBag, bBag, bBag}
	fieldNames = [numFields]string{"name", "exact", "path", "title", "doc", "idents", "identx",
		"symname", "symexact", "symtext", "symidents", "symidentx", "str", "symstr"}
)

// termSink receives (term, field) occurrences of one page.
type termSink func(term string, f field)

// termHooks let the ranking index cache what recurs on many pages: ident
// emits the terms of one identifier used in a body (as identTerms does),
// literal those of one string literal (as literalTerms does), and token
// those of one token of prose, a signature or a path (the terms
// textWordTerms makes of it) in field f, and name those of a definition's
// name in fName: its tokens' words, then its stop words (nameStopWords).
type termHooks struct {
	ident, literal, name func(string)
	token                func(tok string, f field)
}

// pageTerms emits the terms of p's own fields, through hooks when not nil.
func pageTerms(p *graph.Page, emit termSink, hooks *termHooks, scratch []string) []string {
	words := func(s string, f field) {
		if hooks != nil {
			eachIdentToken(s, func(tok string) { hooks.token(tok, f) })
			return
		}
		var ws []string
		ws, scratch = textWordTerms(nil, s, scratch)
		for _, w := range ws {
			emit(w, f)
		}
	}
	idents := func() {
		for _, id := range p.Idents {
			if hooks != nil {
				hooks.ident(id)
			} else {
				sc := wordScratch{pieces: scratch}
				identTerms(id, emit, &sc)
				scratch = sc.pieces
			}
		}
	}
	strs := func() {
		for _, lit := range p.Literals {
			if hooks != nil {
				hooks.literal(lit)
			} else {
				sc := wordScratch{pieces: scratch}
				literalTerms(lit, emit, &sc)
				scratch = sc.pieces
			}
		}
	}
	switch p.Kind {
	case graph.KindSymbol:
		if hooks != nil {
			hooks.name(p.Name)
		} else {
			words(p.Name, fName)
			scratch = nameStopWords(p.Name, emit, scratch)
		}
		emitExactNames(p.Name, p.Qualified, fExactName, emit)
		words(p.Title, fTitle)
		words(p.Doc, fDoc)
		idents()
		strs()
	case graph.KindFile:
		base := path.Base(p.Path)
		stemName := strings.TrimSuffix(base, path.Ext(base))
		words(stemName, fName)
		emit(exactTerm(base), fExactName)
		emit(exactTerm(stemName), fExactName)
		pathTerms(p.Path, true, emit, words)
		words(p.Doc, fDoc)
		idents()
		strs()
	case graph.KindModule:
		words(p.Name, fName)
		emit(exactTerm(path.Base(p.Path)), fExactName)
		pathTerms(p.Path, false, emit, words)
		words(p.Doc, fDoc)
	case graph.KindDoc:
		words(p.Title, fName)
		if p.Path != "" {
			pathTerms(p.Path, true, emit, words)
		}
		words(p.Doc, fDoc)
	default: // memory and anything new
		words(p.Title, fName)
		words(p.Name, fName)
		words(p.Doc, fDoc)
		idents()
	}
	return scratch
}

// nameStopWords emits the pieces of a definition's name that are stop
// words ("get" of _AppCtxGlobals.get and GetInt, "before" of
// before_request), which wordTerms drops, as stop terms ("_get") of its
// name field. Only a member-only question asks for them (addStopWords).
func nameStopWords(name string, emit termSink, scratch []string) []string {
	for _, tok := range identTokens(name) {
		scratch = splitIdent(scratch[:0], tok)
		for _, p := range scratch {
			if len(p) >= 2 && stopWords[p] {
				emit(stopTerm(p), fName)
			}
		}
	}
	return scratch
}

// A wordScratch holds the buffers of identTerms and literalTerms, reused
// from one call to the next: a words slice made per call was a quarter
// of the tokenizing's allocations (moby).
type wordScratch struct{ pieces, words []string }

// identTerms emits the terms of an identifier used in a body: its words,
// then the whole identifier.
func identTerms(id string, emit termSink, sc *wordScratch) {
	sc.words, sc.pieces = wordTerms(sc.words[:0], id, sc.pieces)
	for _, w := range sc.words {
		emit(w, fIdents)
	}
	emit(exactTerm(id), fIdentExact)
}

// literalTerms emits the terms of one string literal: its words, and its
// identifier-like tokens exactly.
func literalTerms(lit string, emit termSink, sc *wordScratch) {
	sc.words, sc.pieces = wordTerms(sc.words[:0], lit, sc.pieces)
	for _, w := range sc.words {
		emit(w, fStr)
	}
	eachIdentToken(lit, func(tok string) {
		if looksLikeIdent(tok) {
			emit(exactTerm(tok), fStr)
		}
	})
}

// memberField maps a symbol's own field to the field of its file that
// aggregates its members' text: a file page also carries its symbols'
// terms (see score.go), reusing the symbol's tokens rather than tokenizing
// its text twice.
var memberField = [numFields]field{
	fName: fSymName, fExactName: fSymExact, fTitle: fSymText, fDoc: fSymText,
	fIdents: fSymIdents, fIdentExact: fSymIdentExact, fStr: fSymStr,
	// Fields a symbol page does not use map to themselves.
	fPath: fPath, fSymName: fSymName, fSymExact: fSymExact, fSymText: fSymText,
	fSymIdents: fSymIdents, fSymIdentExact: fSymIdentExact, fSymStr: fSymStr,
}

// emitExactNames emits "=name", "=qualified" and "=parent.name" of a definition.
func emitExactNames(name, qual string, f field, emit termSink) {
	emit(exactTerm(name), f)
	if qual != "" && !strings.EqualFold(qual, name) {
		emit(exactTerm(qual), f)
		parts := strings.Split(qual, ".")
		if len(parts) > 2 {
			emit(exactTerm(parts[len(parts)-2]+"."+parts[len(parts)-1]), f)
		}
	}
}

// pathTerms emits the words and segment terms of a slash path. For a file
// the last element is its base name: both "/rank.go" and "/rank" are emitted.
func pathTerms(p string, isFile bool, emit termSink, words func(string, field)) {
	if p == "" || p == "." {
		return
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if isFile && i == len(segs)-1 {
			stemName := strings.TrimSuffix(s, path.Ext(s))
			emit(segTerm(s), fPath)
			if stemName != s {
				emit(segTerm(stemName), fPath)
			}
			words(stemName, fPath)
			continue
		}
		emit(segTerm(s), fPath)
		words(s, fPath)
	}
}
