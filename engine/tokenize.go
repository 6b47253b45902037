package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terms live in three disjoint spaces that share one dictionary, told apart
// by their first byte:
//
//	"parse"        a word: one lower-cased, stemmed piece of an identifier or prose word
//	"=parseconfig" an exact name: a whole identifier, lower-cased, unstemmed
//	"/engine"      a path segment: a directory name, a file's base name or stem
//	"_get"         a stop word a definition's name holds as a piece (nameStopWords)
//
// Keeping them apart lets one posting lookup answer "which pages define
// parseConfig" without mixing in the pages that merely mention "parse".
const (
	exactPrefix = '='
	segPrefix   = '/'
	stopPrefix  = '_'
)

// stopTerm is the term of a stop word a name holds ("get" → "_get"): a
// space of its own, so that no word's stem ("others" → "other") meets it.
func stopTerm(w string) string { return string(stopPrefix) + w }

// maxTermBytes bounds a term; longer identifiers (generated code, base64 in a
// doc) are cut, which keeps the dictionary small and never changes a match
// of a real name (measured: 99.9% of identifiers in moby are < 48 bytes).
const maxTermBytes = 48

// stopWords are English function words and commit-message filler that carry
// no signal about where code lives. Programming words (error, test, file,
// path, type) are deliberately NOT here: idf already weighs them.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at
	be because been before being below between both but by can cannot could did do does doing done down
	during each either else etc ever every few for from further get gets got had has have having he her
	here hers him his how however i if in into is it its itself just let like make makes may me might
	more most much must my need needs no nor not now of off on once one only or other ought our ours out
	over own per quite rather really same see seem seems she should since so some still such than that
	the their theirs them themselves then there therefore these they this those though through thus to
	too under until up upon us use used uses using very via was way we well were what when where whether
	which while who whom whose why will with within without would yet you your yours
	isn aren wasn weren doesn don didn won wouldn shouldn couldn can't don't doesn't isn't won't it's
	instead able already ago anymore because lets let's thing things something way ways`) {
		m[w] = true
	}
	return m
}()

// isStop reports whether a lower-case word carries no signal.
func isStop(w string) bool { return len(w) < 2 || stopWords[w] }

// splitIdent appends to dst the lower-cased pieces of an identifier or word:
// camelCase, PascalCase, snake_case, kebab-case, ACRONYMRuns and digit runs
// are split ("parseHTTPRequest2" → parse, http, request, 2). Non-ASCII
// letters are kept inside pieces. Pieces are not stemmed.
func splitIdent(dst []string, s string) []string {
	start := -1
	var prev rune // class of the previous rune: 'l' lower, 'u' upper, 'd' digit, 0 other
	flush := func(end int) {
		if start >= 0 && end > start {
			dst = append(dst, strings.ToLower(s[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		var c rune
		switch {
		case r >= 'a' && r <= 'z':
			c = 'l'
		case r >= 'A' && r <= 'Z':
			c = 'u'
		case r >= '0' && r <= '9':
			c = 'd'
		case r >= utf8.RuneSelf && unicode.IsLetter(r):
			if unicode.IsUpper(r) {
				c = 'u'
			} else {
				c = 'l'
			}
		}
		switch {
		case c == 0:
			flush(i)
		case start < 0:
			start = i
		case c == 'u' && prev == 'l', c == 'd' && prev != 'd', c != 'd' && prev == 'd':
			flush(i)
			start = i
		case c == 'l' && prev == 'u':
			// An acronym's plural stays whole: "CIDRs", "URLs" (then stemmed to cidr, url).
			if r == 's' && i-start >= 2 && (i+1 == len(s) || s[i+1] < 'a' || s[i+1] > 'z') {
				break
			}
			// "HTTPRequest": the upper run ends one before this lower rune.
			j := i - 1
			for j > start && s[j]&0xC0 == 0x80 {
				j--
			}
			if j > start {
				flush(j)
				start = j
			}
		}
		prev = c
		i += size
	}
	flush(len(s))
	return dst
}

// stem reduces an English word to a crude stem so that "fixtures",
// "fixture", "parsing", "parsed" and "parse" meet. It is deliberately light:
// it only removes inflections (plural, -ing, -ed, -ly) and a final "e", and
// it is applied the same way to pages and queries, so an imperfect stem
// still matches itself. Words of 3 bytes or fewer are left alone.
func stem(w string) string {
	n := len(w)
	if n <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		w = w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "es") && n > 4 && (w[n-3] == 'x' || w[n-3] == 'h' && (w[n-4] == 'c' || w[n-4] == 's')):
		w = w[:n-2] // boxes, matches, flushes
	case w[n-1] == 's':
		w = w[:n-1]
	case strings.HasSuffix(w, "ing") && n > 5:
		w = undouble(w[:n-3])
	case strings.HasSuffix(w, "ed") && n > 4:
		w = undouble(w[:n-2])
	case strings.HasSuffix(w, "ly") && n > 5:
		w = w[:n-2]
	}
	if n := len(w); n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble turns "runn" into "run" but keeps "call", "pass", "buzz".
func undouble(w string) string {
	n := len(w)
	if n > 2 && w[n-1] == w[n-2] && strings.IndexByte("bdfgmnprt", w[n-1]) >= 0 {
		return w[:n-1]
	}
	return w
}

// wordTerms appends the word terms of free text (prose, a signature, a path)
// to dst: identifiers split, lower-cased, stop words dropped, stemmed.
func wordTerms(dst []string, text string, scratch []string) ([]string, []string) {
	eachIdentToken(text, func(tok string) {
		scratch = splitIdent(scratch[:0], tok)
		dst = pieceTerms(dst, scratch)
	})
	return dst, scratch
}

// maxJoinDigits bounds the digit run pieceTerms joins to its letters: a
// version, width or standard number (int32, sha256, rfc7231), not a hash
// or a generated suffix, which would only grow the dictionary.
const maxJoinDigits = 4

// pieceTerms appends the word terms of one token's identifier pieces
// (splitIdent's output): each piece stemmed, stop words and bare digit
// runs dropped, and a digit run joined to the letter piece before it as a
// word of its own next to the letters ("int32" of GetInt32Slice besides
// "int"; "h3", "utf8", "x509", "sha256"): without it the digits are lost
// and int32 is int64, h3 is h2 — and a question's plain "h3", kept whole,
// matched nothing.
func pieceTerms(dst []string, pieces []string) []string {
	for i, p := range pieces {
		if !allDigits(p) {
			if !isStop(p) {
				dst = append(dst, clip(stem(p)))
			}
			continue
		}
		if i > 0 && len(p) <= maxJoinDigits && !allDigits(pieces[i-1]) {
			dst = append(dst, clip(pieces[i-1]+p))
		}
	}
	return dst
}

// textPieceTerms is pieceTerms for one token of a page's own text (its
// name, signature, doc, path) in the index: a token that is a number of
// at most maxJoinDigits digits is a word of its own ("an integer 64" of
// GetInt64's doc, "HTTP 2", "RFC 7231"), where pieceTerms drops it.
// Without it GetInt, GetInt8 … GetInt64 of one doc sentence each tied on
// every other word, and the shortest won (docstring → symbol, TUNING.md).
// A question's numbers are terms only of a member-only question
// (memberTerms): a default answer reads none of these words.
func textPieceTerms(dst []string, pieces []string) []string {
	if len(pieces) == 1 && allDigits(pieces[0]) && len(pieces[0]) <= maxJoinDigits {
		return append(dst, pieces[0])
	}
	return pieceTerms(dst, pieces)
}

// textWordTerms is wordTerms with textPieceTerms: the words of a page's
// own text as the index holds them.
func textWordTerms(dst []string, text string, scratch []string) ([]string, []string) {
	for _, tok := range identTokens(text) {
		scratch = splitIdent(scratch[:0], tok)
		dst = textPieceTerms(dst, scratch)
	}
	return dst, scratch
}

// eachIdentToken calls yield with each maximal run of letters, digits and
// '_' in s, in order (identTokens' without a slice: the build tokenizes
// every page's text so, 30 MB of slices on moby).
func eachIdentToken(s string, yield func(string)) {
	start := -1
	for i := 0; i < len(s); {
		// ASCII by a table, the rest as range would decode it (an
		// invalid byte is U+FFFD, no letter): moby's text is nearly all
		// ASCII, and eachIdentToken's own loop went 0.034 → 0.023 s of a
		// build's CPU.
		in, size := identASCII[s[i]], 1
		if s[i] >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			in = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if in {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			yield(s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		yield(s[start:])
	}
}

// identASCII says which ASCII bytes are letters, digits or '_'.
var identASCII = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = c == '_' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
	}
	return t
}()

// identTokens returns the maximal runs of letters, digits and '_' in s.
func identTokens(s string) []string {
	var out []string
	eachIdentToken(s, func(tok string) { out = append(out, tok) })
	return out
}

// exactTerm is the exact-name term of an identifier or name ("=parseconfig").
func exactTerm(name string) string {
	name = strings.Trim(name, "_")
	if name == "" {
		return ""
	}
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return clip(string(exactPrefix) + strings.ToLower(name))
		}
	}
	// ASCII (moby: nearly every name) in one allocation, not one for the
	// lower-case name and one for the term, and clipped before it is
	// copied.
	var b strings.Builder
	n := min(len(name), maxTermBytes-1)
	b.Grow(1 + n)
	b.WriteByte(exactPrefix)
	for i := range n {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// segTerm is the path-segment term of a directory or file name ("/engine").
func segTerm(seg string) string {
	if seg == "" || seg == "." {
		return ""
	}
	return clip(string(segPrefix) + strings.ToLower(seg))
}

func clip(t string) string {
	if len(t) > maxTermBytes {
		t = t[:maxTermBytes]
		for len(t) > 0 && !utf8.ValidString(t) {
			t = t[:len(t)-1]
		}
	}
	return t
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
