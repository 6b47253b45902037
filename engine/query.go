package engine

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// termRole says which channel a query term came from; it only feeds --explain
// and the per-role weights in score.go.
type termRole uint8

const (
	roleWord      termRole = iota // a prose word or a piece of an identifier
	roleExact                     // a whole identifier the question names
	roleSeg                       // a path segment (directory, file stem)
	roleComponent                 // the leading "component:" of a commit-style question
)

// queryTerm is one weighted term of an analysed question.
type queryTerm struct {
	term   string
	weight float64
	role   termRole
}

// pathRef is a path or file name the question mentions ("engine/rank.go",
// "rank.go:42", a traceback frame).
type pathRef struct {
	path  string // as written, slashes normalised, no leading "./"
	line  int    // 0 when absent
	trace bool   // from a stack-trace line
	bare  bool   // a capitalised word that may name a file without an extension ("Makefile")
}

// analysis is everything query analysis extracts from a question.
type analysis struct {
	terms     []queryTerm
	paths     []pathRef
	component string // lower-case leading component ("reverseproxy"), "" if none
	// idents are the identifier-like tokens the question names outside
	// stack traces (snake_case, camelCase, dotted, with digits, backticked
	// or called), as written, for the exact-match signal.
	idents []string
	// phrase is the text whose adjacent words the phrase factor matches
	// against file stems: the question, or the title of a long one.
	phrase string
}

var (
	// Python: File "x/y.py", line 12, in f
	rePyFrame = regexp.MustCompile(`File "([^"]+)", line (\d+)(?:, in ([A-Za-z_<][\w.<>]*))?`)
	// JS/TS: at foo.bar (src/x.ts:3:9)  or  at src/x.ts:3:9
	reJSFrame = regexp.MustCompile(`\bat (?:(?:new |async )?([\w$.<>]+) )?\(?((?:[A-Za-z]:)?[^\s():]+\.[A-Za-z0-9]+):(\d+)(?::\d+)?\)?`)
	// Go: pkg/path.(*T).Method(0x1, ...)  or  pkg.Func(...)
	reGoFunc = regexp.MustCompile(`(?:^|[\s/])([\w.-]+)\.(?:\(\*?(\w+)\)\.)?(\w+)\((?:0x[0-9a-f]+|\.\.\.|, |\{[^}]*\})*\)`)
	// A path or file name with an extension, optionally :line[:col].
	rePath = regexp.MustCompile(`(?:^|[\s"'(\[{<,=` + "`" + `])(/?(?:[\w.@+-]+/)*[\w.@+-]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,7})(?::(\d+))?(?::\d+)?`)
	// A leading component: "reverseproxy: ...", "fix(tree): ...", "[refactor] ...".
	reComponent = regexp.MustCompile(`^\s*(?:\[[^\]]{1,30}\]\s*)?([\w./-]{1,60})(?:\(([\w ./,-]{1,60})\))?!?:\s`)
	// Code-like tokens: identifiers with qualifiers (a.b, a::b, a#b, a->b).
	reCodeToken = regexp.MustCompile(`[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*(?:\(\))?`)
)

// commitTypes are Conventional Commits types; as a leading "type:" they say
// what kind of change it is, not where (their scope, "fix(tree):", does).
var commitTypes = map[string]bool{"fix": true, "feat": true, "feature": true, "chore": true, "perf": true,
	"refactor": true, "docs": true, "doc": true, "test": true, "tests": true, "style": true, "build": true,
	"ci": true, "revert": true, "deps": true, "release": true, "wip": true, "bugfix": true, "hotfix": true,
	"cleanup": true, "minor": true, "improvement": true, "breaking": true}

// sourceExts are extensions that make a dotted token a file name rather than
// a qualified identifier ("rank.go" vs "strings.Count").
var sourceExts = map[string]bool{"go": true, "py": true, "pyi": true, "js": true, "jsx": true, "mjs": true,
	"cjs": true, "ts": true, "tsx": true, "rs": true, "java": true, "kt": true, "kts": true, "scala": true,
	"c": true, "h": true, "cc": true, "cpp": true, "cxx": true, "hpp": true, "hh": true, "cs": true,
	"rb": true, "php": true, "swift": true, "m": true, "mm": true, "lua": true, "sh": true, "bash": true,
	"md": true, "rst": true, "txt": true, "yaml": true, "yml": true, "json": true, "toml": true, "proto": true,
	"sql": true, "html": true, "css": true, "scss": true, "vue": true, "svelte": true, "ex": true,
	"exs": true, "erl": true, "hs": true, "ml": true, "clj": true, "dart": true, "zig": true, "nim": true,
	"mod": true, "sum": true, "cfg": true, "ini": true, "xml": true, "gradle": true, "cmake": true, "el": true}

// maxQueryBytes bounds the analysed question; a pasted log longer than this
// is cut (its first 8 KiB hold the error and the innermost frames).
const maxQueryBytes = 8 << 10

// analyze turns a question into weighted terms, path references and a
// component. It never fails; an empty or junk question yields no terms.
func analyze(q string) analysis {
	if len(q) > maxQueryBytes {
		q = q[:maxQueryBytes]
	}
	q = strings.ToValidUTF8(q, " ")
	z := getAnalyzer()
	defer putAnalyzer(z)
	z.a.phrase = q
	rest := z.traceFrames(q)
	title, body := splitTitle(rest)
	if body == "" {
		rest = z.leadingComponent(rest)
		z.pathRefs(rest)
		z.codeAndWords(rest)
	} else {
		// A long question (an issue: a title, then prose, code blocks,
		// tracebacks): the title says what it is about, as a commit
		// subject does; the body's named things (identifiers, paths,
		// error lines) count above its prose, and a code block's plain
		// words (keywords, a log's chatter) count least.
		z.a.phrase = title
		title = z.leadingComponent(title)
		z.pathRefs(title + "\n" + body)
		z.codeAndWords(title)
		z.body(body)
	}
	z.keepStrongest()
	return z.a
}

// fileWords are the stemmed words of the question as file and directory
// names are matched against them (the title of a long question), without
// its leading component, which the component boosts already match to
// paths (nil when none is left).
func (a *analysis) fileWords() []string {
	ws, scratch := wordTerms(nil, a.phrase, nil)
	var cw []string
	if a.component != "" {
		cw, _ = wordTerms(nil, a.component, scratch)
	}
	out := ws[:0]
	for _, w := range ws {
		if !slices.Contains(cw, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	// An agent noun also names the file of its verb ("file browser" →
	// browse.go, "formatter" → format.go, "handler" → handle.go).
	for _, w := range out {
		if n := len(w); n > 5 && strings.HasSuffix(w, "er") {
			if v := stem(undouble(w[:n-2]) + "e"); !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	// Two adjacent words also name a file whose stem writes them as one
	// ("health checks" → healthchecks.go, "static files" → staticfiles.go).
	prev := ""
	for _, tok := range identTokens(a.phrase) {
		scratch = splitIdent(scratch[:0], tok)
		for _, p := range scratch {
			if isStop(p) || allDigits(p) || slices.Contains(cw, stem(p)) {
				prev = ""
				continue
			}
			if prev != "" {
				if c := clip(stem(prev + p)); !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
			prev = p
		}
	}
	return out
}

// unnamed returns the project words (sorted) the question does not write
// as the qualifier of a qualified name: "pytest.Instance" names the module
// pytest, while "a pytest bug" or `pytest --fixtures` does not name
// src/pytest.py. proj is not modified.
func (a *analysis) unnamed(proj []string) []string {
	if len(proj) == 0 || len(a.idents) == 0 {
		return proj
	}
	var ws, scratch []string
	for _, id := range a.idents {
		if i := strings.LastIndexAny(id, ".:#"); i > 0 {
			ws, scratch = wordTerms(ws, id[:i], scratch)
		}
	}
	if !slices.ContainsFunc(proj, func(w string) bool { return slices.Contains(ws, w) }) {
		return proj
	}
	var out []string
	for _, w := range proj {
		if !slices.Contains(ws, w) {
			out = append(out, w)
		}
	}
	return out
}

// splitTitle splits a question of several lines into its first non-blank
// line and the rest; body is "" for a one-line question.
func splitTitle(q string) (title, body string) {
	q = strings.TrimLeft(q, " \t\r\n")
	i := strings.IndexByte(q, '\n')
	if i < 0 {
		return q, ""
	}
	title, body = q[:i], q[i+1:]
	if strings.TrimSpace(body) == "" {
		return title, ""
	}
	return title, body
}

// body is step 4 of a long question: its lines, fenced code blocks (and
// interpreter ">>>" lines) told apart from prose, each token weighed by
// what it is and where it stands.
func (z *analyzer) body(body string) {
	inFence := false
	for _, line := range strings.Split(body, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		z.scale, z.plain = bodyNamedShare, bodyProseShare
		if inFence || strings.HasPrefix(strings.TrimSpace(line), ">>>") {
			z.plain = bodyCodeWordShare
		}
		z.codeAndWords(line)
	}
	z.scale, z.plain = 0, 0
}

// analyzer is the state of one analyze call: the analysis being built, the
// index of each term in it, and scratch space for splitting identifiers.
// The map and the scratch are pooled: an analyzer on the stack would put
// them on the heap (its methods store through it).
type analyzer struct {
	a       analysis
	acc     map[string]int // term → index in a.terms
	scratch []string
	words   []string // addWords' terms of one identifier
	// scale multiplies the weight of named things (identifiers, code) and
	// plain that of prose words while the body of a long question is
	// read; 0 means 1.
	scale, plain float64
	cur          float64  // the share add applies now (scale or plain), 0 means 1
	run          []string // the last adjacent plain words, for compound
}

var analyzerPool = sync.Pool{New: func() any { return &analyzer{acc: map[string]int{}} }}

func getAnalyzer() *analyzer { return analyzerPool.Get().(*analyzer) }

// putAnalyzer returns z to the pool, keeping nothing of its question.
func putAnalyzer(z *analyzer) {
	z.a = analysis{}
	z.scale, z.plain, z.cur = 0, 0, 0
	z.run = z.run[:0]
	clear(z.acc)
	clear(z.scratch)
	z.scratch = z.scratch[:0]
	clear(z.words)
	z.words = z.words[:0]
	analyzerPool.Put(z)
}

// add adds a weighted term, or strengthens it when the question already
// produced it.
func (z *analyzer) add(term string, w float64, role termRole) {
	if z.cur > 0 {
		w *= z.cur
	}
	if term == "" || w <= 0 {
		return
	}
	if i, ok := z.acc[term]; ok {
		t := &z.a.terms[i]
		// A repeated term counts, with diminishing returns.
		t.weight += w * repeatWeight
		if w > t.weight {
			t.weight = w
		}
		if role > t.role && role != roleWord {
			t.role = role
		}
		return
	}
	z.acc[term] = len(z.a.terms)
	z.a.terms = append(z.a.terms, queryTerm{term: term, weight: w, role: role})
}

// addWords adds the stemmed words of an identifier or phrase s.
func (z *analyzer) addWords(s string, w float64) {
	z.scratch = splitIdent(z.scratch[:0], s)
	z.words = pieceTerms(z.words[:0], z.scratch)
	for _, t := range z.words {
		z.add(t, w, roleWord)
	}
}

// traceFrames is step 1: the stack-trace frames of q (Python, JS/TS, Go),
// as path references and function names. It returns q without the Python
// and JS frames, which later steps would misread.
func (z *analyzer) traceFrames(q string) (rest string) {
	rest = q
	for _, m := range rePyFrame.FindAllStringSubmatch(q, 64) {
		ln, _ := strconv.Atoi(m[2])
		z.a.paths = append(z.a.paths, pathRef{path: cleanRef(m[1]), line: ln, trace: true})
		if m[3] != "" && !strings.HasPrefix(m[3], "<") {
			z.add(exactTerm(m[3]), weightTraceFunc, roleExact)
			z.addWords(m[3], weightIdentPiece)
		}
		rest = strings.Replace(rest, m[0], " ", 1)
	}
	for _, m := range reJSFrame.FindAllStringSubmatch(q, 64) {
		if !sourceExts[strings.ToLower(path.Ext(m[2]))[min(1, len(path.Ext(m[2]))):]] {
			continue
		}
		ln, _ := strconv.Atoi(m[3])
		z.a.paths = append(z.a.paths, pathRef{path: cleanRef(m[2]), line: ln, trace: true})
		if f := m[1]; f != "" && f != "Object.<anonymous>" {
			z.addQualified(f, weightTraceFunc)
		}
		rest = strings.Replace(rest, m[0], " ", 1)
	}
	for _, m := range reGoFunc.FindAllStringSubmatch(q, 64) {
		name := m[3]
		if m[2] != "" {
			z.add(exactTerm(m[2]+"."+name), weightTraceFunc, roleExact)
			z.add(exactTerm(m[2]), weightTraceFunc*0.5, roleExact)
			z.addWords(m[2], weightIdentPiece)
		}
		z.add(exactTerm(name), weightTraceFunc, roleExact)
		z.addWords(name, weightIdentPiece)
	}
	return rest
}

// leadingComponent is step 2: a leading "component:" (or a commit type's
// scope, "fix(tree):"), kept as a.component and added with small text
// weights. It returns rest without it.
func (z *analyzer) leadingComponent(rest string) string {
	m := reComponent.FindStringSubmatch(rest)
	if m == nil {
		return rest
	}
	comp, scope := strings.ToLower(m[1]), strings.ToLower(m[2])
	if commitTypes[comp] {
		comp = scope
	}
	if i := strings.IndexAny(comp, ", "); i >= 0 {
		comp = comp[:i]
	}
	comp = strings.Trim(comp, "./-")
	if comp != "" && !isStop(comp) && !commitTypes[comp] {
		z.a.component = comp
		base := comp
		if i := strings.LastIndexAny(base, "./"); i >= 0 && sourceExts[base[i+1:]] {
			base = base[:i] // "rewrite.py:" names the file
		}
		if i := strings.LastIndexByte(base, '/'); i >= 0 {
			base = base[i+1:]
		}
		// Small text weights: the component is mostly a multiplicative
		// boost (score.go); as text it would add the same points to every
		// file of the directory and drown what tells them apart.
		z.add(segTerm(base), weightComponent, roleComponent)
		z.add(exactTerm(base), weightComponentExact, roleExact)
		z.addWords(base, weightComponentWord)
	}
	return rest[len(m[0]):]
}

// pathRefs is step 3: the paths and file names rest mentions, and the
// terms of every path reference found so far (trace frames' too).
func (z *analyzer) pathRefs(rest string) {
	for _, m := range rePath.FindAllStringSubmatchIndex(rest, 64) {
		p := rest[m[2]:m[3]]
		ext := strings.ToLower(path.Ext(p))
		if len(ext) < 2 || !sourceExts[ext[1:]] {
			continue
		}
		ln := 0
		if m[4] >= 0 {
			ln, _ = strconv.Atoi(rest[m[4]:m[5]])
		}
		z.a.paths = append(z.a.paths, pathRef{path: cleanRef(p), line: ln})
	}
	for _, pr := range z.a.paths {
		base := path.Base(pr.path)
		stemName := strings.TrimSuffix(base, path.Ext(base))
		z.add(segTerm(base), weightPathSeg, roleSeg)
		z.add(segTerm(stemName), weightPathSeg*0.5, roleSeg)
		z.addWords(stemName, weightWord)
	}
}

// codeAndWords is step 4: code-like tokens (exact names, and their words)
// and prose words. Text between backticks is code.
func (z *analyzer) codeAndWords(rest string) {
	for i, part := range strings.Split(rest, "`") {
		inTick := i%2 == 1
		z.run = z.run[:0]
		end := 0
		ms := reCodeToken.FindAllStringIndex(part, -1)
		for _, m := range ms {
			if strings.TrimSpace(part[end:m[0]]) != "" {
				z.run = z.run[:0] // punctuation between: no longer one name
			}
			end = m[1]
			tok := part[m[0]:m[1]]
			// In a code excerpt of several tokens (`assert mod not in
			// mods`), a stop word is the language's keyword, not a name.
			if inTick && len(ms) > 1 && isStop(strings.ToLower(tok)) {
				z.compound("")
				continue
			}
			z.codeToken(tok, inTick)
		}
	}
}

// compound adds the names a run of adjacent plain words may spell when
// written together: "json element" → JsonElement, "type adapter
// factory" → TypeAdapterFactory, "event loop" → event_loop. lw is the
// word just read, lower-case, or "" to end the run. The body of a long
// question spells no names this way: its prose is not a name's words.
func (z *analyzer) compound(lw string) {
	if lw == "" || z.plain > 0 {
		z.run = z.run[:0]
		return
	}
	z.run = append(z.run, lw)
	if len(z.run) > 3 {
		z.run = z.run[1:]
	}
	n := len(z.run)
	for k := 2; k <= n; k++ {
		z.add(exactTerm(strings.Join(z.run[n-k:], "")), weightCompound, roleExact)
		z.add(exactTerm(strings.Join(z.run[n-k:], "_")), weightCompound, roleExact)
	}
}

// codeToken adds one token of step 4.
func (z *analyzer) codeToken(tok string, inTick bool) {
	call := strings.HasSuffix(tok, "()")
	tok = strings.TrimSuffix(tok, "()")
	ext := path.Ext(tok)
	if len(ext) > 1 && sourceExts[strings.ToLower(ext[1:])] && !hasUpper(ext) {
		return // a file name, handled by pathRefs
	}
	if isQualified(tok) {
		z.compound("")
		z.cur = z.scale
		defer func() { z.cur = 0 }()
		z.addQualified(tok, weightExactCode)
		if len(tok) >= 4 {
			z.a.idents = append(z.a.idents, tok)
		}
		return
	}
	lw := strings.ToLower(tok)
	code := inTick || call || looksLikeIdent(tok)
	z.cur = z.plain
	if code {
		z.cur = z.scale
	}
	defer func() { z.cur = 0 }()
	switch {
	case code:
		z.compound("")
		if len(tok) >= 3 {
			z.a.idents = append(z.a.idents, tok)
		}
		z.add(exactTerm(tok), weightExactCode, roleExact)
		z.addWords(tok, weightIdentPiece)
	case isStop(lw) || allDigits(lw):
		z.compound("")
	default:
		z.add(clip(stem(lw)), weightWord, roleWord)
		z.compound(lw)
		if c := tok[0]; 'A' <= c && c <= 'Z' && len(tok) >= 4 && len(z.a.paths) < maxBareRefs {
			z.a.paths = append(z.a.paths, pathRef{path: tok, bare: true})
		}
		// A plain word may still be a name: "approx", "tree", "Context".
		z.add(exactTerm(lw), weightExactWord, roleExact)
		z.add(segTerm(lw), weightSegWord, roleSeg)
	}
}

// keepStrongest keeps the maxQueryTerms strongest terms; ties keep
// question order.
func (z *analyzer) keepStrongest() {
	if len(z.a.terms) <= maxQueryTerms {
		return
	}
	idx := make([]int, len(z.a.terms))
	for i := range idx {
		idx[i] = i
	}
	sortStable(idx, func(x, y int) bool { return z.a.terms[x].weight > z.a.terms[y].weight })
	kept := make([]queryTerm, 0, maxQueryTerms)
	for _, i := range idx[:maxQueryTerms] {
		kept = append(kept, z.a.terms[i])
	}
	z.a.terms = kept
}

// qualSep turns every separator of a qualified name ("a::b", "A#b",
// "a->b") into a dot.
var qualSep = strings.NewReplacer("::", ".", "#", ".", "->", ".")

// nameParts splits a qualified name at its separators: "a::b.c" → a, b, c.
func nameParts(id string) []string { return strings.Split(qualSep.Replace(id), ".") }

// addQualified adds the terms of "pkg.Func", "Class.method", "a::b::c":
// the last two parts as a qualified exact name, the last part, and every part's words.
func (z *analyzer) addQualified(tok string, w float64) {
	parts := nameParts(tok)
	last := parts[len(parts)-1]
	if len(parts) >= 2 {
		z.add(exactTerm(parts[len(parts)-2]+"."+last), w, roleExact)
		z.add(exactTerm(parts[len(parts)-2]), w*qualifierShare, roleExact)
	}
	z.add(exactTerm(last), w*lastPartShare, roleExact)
	for _, p := range parts {
		z.addWords(p, weightIdentPiece)
	}
}

func isQualified(tok string) bool {
	return strings.Contains(tok, ".") || strings.Contains(tok, "::") || strings.Contains(tok, "#") || strings.Contains(tok, "->")
}

// looksLikeIdent reports a token a person would only write when naming code:
// inner capitals (parseConfig, HTTPServer), underscores (max_len, __init__),
// letters mixed with digits (utf8, h2c).
func looksLikeIdent(t string) bool {
	if strings.Contains(strings.Trim(t, "_"), "_") || strings.HasPrefix(t, "_") {
		return true
	}
	upper, lower, digit := 0, 0, false
	for i, r := range t {
		switch {
		case unicode.IsUpper(r):
			if i > 0 {
				upper++
			}
		case unicode.IsLower(r):
			lower++
		case unicode.IsDigit(r):
			digit = true
		}
	}
	return (upper > 0 && lower > 0) || (digit && lower+upper > 0 && len(t) > 2)
}

func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// cleanRef normalises a path as written in a question or traceback.
func cleanRef(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	p = strings.TrimPrefix(p, "./")
	return p
}

// sortStable is a tiny insertion sort (query term lists are short).
func sortStable(idx []int, less func(a, b int) bool) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && less(idx[j], idx[j-1]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}
