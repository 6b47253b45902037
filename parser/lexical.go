package parser

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Bounds of the lexical extractor per file: a 1 MB file of identifiers
// must not make a million refs (the graph keeps 96 distinct names per
// definition anyway).
const (
	maxLexRefs     = 20000
	maxLexLiterals = 4096
	maxLexDefs     = 4000
)

// lexScan is the result of scanning one file for comments and strings.
type lexScan struct {
	// code is the source with comment and string bytes blanked (newlines
	// kept); noComments blanks comments only.
	code, noComments []byte
	comments         [][2]uint32
	strs             [][2]uint32 // string contents, quotes excluded
}

// scanLexical blanks h's comments and strings in src.
func scanLexical(h *heurLang, src []byte) lexScan {
	sc := lexScan{code: bytes.Clone(src), noComments: bytes.Clone(src)}
	blank := func(buf []byte, s, e int) {
		for k := s; k < e; k++ {
			if buf[k] != '\n' {
				buf[k] = ' '
			}
		}
	}
	n := len(src)
	i := 0
	for i < n {
		c := src[i]
		if c == '\n' || c == ' ' || c == '\t' {
			i++
			continue
		}
		// Block comments first: Lua's "--[[" starts with its line marker.
		if s, ok := h.blockAt(src, i); ok {
			end := h.blockEnd(src, i, s)
			blank(sc.code, i, end)
			blank(sc.noComments, i, end)
			sc.comments = append(sc.comments, [2]uint32{uint32(i), uint32(end)})
			i = end
			continue
		}
		if h.lineCommentAt(src, i) {
			end := i + lineLen(src[i:])
			blank(sc.code, i, end)
			blank(sc.noComments, i, end)
			sc.comments = append(sc.comments, [2]uint32{uint32(i), uint32(end)})
			i = end
			continue
		}
		if h.charQuote != 0 && c == h.charQuote {
			if i > 0 && lexIdentByte(h, src[i-1]) {
				i++ // foldl', x'
				continue
			}
			if end, ok := charLiteral(src, i); ok {
				blank(sc.code, i, end)
				i = end
				continue
			}
			i++
			continue
		}
		if h.multiline && c == '\\' {
			i += 2 // a character literal such as \" or \a
			continue
		}
		if strings.IndexByte(h.quotes, c) >= 0 {
			end, cs, ce := stringEnd(src, i, h.multiline)
			blank(sc.code, i, end)
			if ce > cs {
				sc.strs = append(sc.strs, [2]uint32{uint32(cs), uint32(ce)})
			}
			i = end
			continue
		}
		if h.name == "zig" && c == '\\' && i+1 < n && src[i+1] == '\\' {
			end := i + lineLen(src[i:]) // a Zig multi-line string line
			blank(sc.code, i, end)
			sc.strs = append(sc.strs, [2]uint32{uint32(i + 2), uint32(end)})
			i = end
			continue
		}
		i++
	}
	return sc
}

func lineLen(b []byte) int {
	if j := bytes.IndexByte(b, '\n'); j >= 0 {
		return j
	}
	return len(b)
}

// blockAt reports which block comment opens at src[i]. An opener
// starting with '=' (Perl's POD, "=head1" … "=cut") must start a line.
func (h *heurLang) blockAt(src []byte, i int) (int, bool) {
	for k, b := range h.block {
		if b[0][0] == '=' && i > 0 && src[i-1] != '\n' {
			continue
		}
		if bytes.HasPrefix(src[i:], []byte(b[0])) {
			return k, true
		}
	}
	return 0, false
}

// blockEnd returns the offset after the block comment opened at i,
// counting nested openings when h.nest; an unclosed comment runs to the end.
func (h *heurLang) blockEnd(src []byte, i, k int) int {
	open, shut := []byte(h.block[k][0]), []byte(h.block[k][1])
	depth := 0
	for j := i; j < len(src); {
		switch {
		case bytes.HasPrefix(src[j:], open) && (h.nest || depth == 0):
			depth++
			j += len(open)
		case bytes.HasPrefix(src[j:], shut):
			depth--
			j += len(shut)
			if depth == 0 {
				return j
			}
		default:
			j++
		}
	}
	return len(src)
}

// lineCommentAt reports whether a line comment starts at src[i]. A '#'
// marker must start a word ("$#array" and "a#b" are not comments).
func (h *heurLang) lineCommentAt(src []byte, i int) bool {
	for _, m := range h.line {
		if !bytes.HasPrefix(src[i:], []byte(m)) {
			continue
		}
		if m[0] == '#' && i > 0 {
			switch src[i-1] {
			case ' ', '\t', '\n', ';', '(', '{', '\r':
			default:
				continue
			}
		}
		// Haskell: "-->" and "--|" are operators, "-- |" and "---" are comments.
		if m == "--" && h.name == "haskell" && i+2 < len(src) && strings.IndexByte("!#$%&*+./<=>?@\\^|~:", src[i+2]) >= 0 {
			continue
		}
		return true
	}
	return false
}

// charLiteral matches 'x', '\n', '\x41' or a one-rune literal at i.
func charLiteral(src []byte, i int) (int, bool) {
	j := i + 1
	if j >= len(src) {
		return 0, false
	}
	if src[j] == '\\' {
		for k := j + 1; k < len(src) && k < j+12; k++ {
			if src[k] == '\'' {
				return k + 1, true
			}
			if src[k] == '\n' {
				return 0, false
			}
		}
		return 0, false
	}
	_, size := utf8.DecodeRune(src[j:])
	if j+size < len(src) && src[j+size] == '\'' && src[j] != '\n' {
		return j + size + 1, true
	}
	return 0, false
}

// stringEnd returns the end of the string opened at i and its contents'
// range. A tripled quote runs to the same three; a single one to the next
// unescaped quote or the end of the line (an unbalanced quote must not
// swallow the file), or past line ends when multiline.
func stringEnd(src []byte, i int, multiline bool) (end, cs, ce int) {
	q := src[i]
	if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		if k := bytes.Index(src[i+3:], []byte{q, q, q}); k >= 0 {
			return i + 3 + k + 3, i + 3, i + 3 + k
		}
		return len(src), i + 3, len(src)
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1, i + 1, j
		case '\n':
			if !multiline {
				return j, i + 1, j
			}
		}
	}
	return len(src), i + 1, len(src)
}

func lexIdentByte(h *heurLang, c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 ||
		strings.IndexByte(h.identChars, c) >= 0
}

func lexIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// lexDef is a definition found by a declaration pattern.
type lexDef struct {
	line, indent int
	nameOff      int
	kind         DefKind
	name         string
	parent       int
	end          int // 0-based last line
}

// parseLexical extracts Facts from a file of a language without a grammar:
// definitions by h's declaration patterns, their doc from the comments
// above them, identifiers as refs, strings and other comments as literals.
func (p *Parser) parseLexical(ctx context.Context, h *heurLang, src []byte) (f *Facts, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f = &Facts{Language: h.name}
	defer func() {
		if r := recover(); r != nil {
			*f = Facts{Language: h.name, Diagnostics: []Diagnostic{{Line: 1, Column: 1,
				Message: validString(fmt.Appendf(nil, "internal error extracting %s facts: %v", h.name, r))}}}
		}
	}()
	p.lines = p.lines.build(src)
	if h.sections != nil {
		h.sections(p, src, f)
		return f, nil
	}
	if h.name == textLang {
		p.lexText(src, f)
		return f, nil
	}
	sc := scanLexical(h, src)
	defs := p.lexDefs(h, src, &sc)
	nLines := len(p.lines)
	encl := make([]int32, nLines)
	for i := range encl {
		encl[i] = -1
	}
	for i, d := range defs {
		for l := d.line; l <= d.end && l < nLines; l++ {
			encl[l] = int32(i)
		}
	}
	docLines := make([]bool, nLines) // comment lines used as a doc
	f.Defs = make([]Def, 0, len(defs))
	for _, d := range defs {
		qual := d.name
		if d.parent >= 0 {
			qual = f.Defs[d.parent].Qualified + "." + d.name
		}
		s, e := p.lines.bounds(src, d.line)
		f.Defs = append(f.Defs, Def{Kind: d.kind, Name: d.name, Qualified: qual, Parent: d.parent,
			StartLine: d.line + 1, EndLine: d.end + 1,
			Signature: foldSpace(sc.noComments[s:e], MaxSignatureBytes),
			Doc:       p.lexDoc(h, src, &sc, d.line, docLines)})
	}
	f.Doc = p.lexFileDoc(h, src, &sc, docLines)
	if f.Doc == "" && len(f.Defs) > 0 && f.Defs[0].Kind == KindModule {
		f.Doc = f.Defs[0].Doc // Haskell's header comment sits on "module"
	}
	p.lexRefs(h, sc.code, defs, encl, f)
	p.lexLiterals(h, src, &sc, encl, docLines, f)
	return f, nil
}

// lexDefs runs the declaration patterns over every line whose first
// non-blank character is code, nesting definitions by indentation.
func (p *Parser) lexDefs(h *heurLang, src []byte, sc *lexScan) []lexDef {
	var defs []lexDef
	var stack []int
	last := -1
	decls := h.compiled()
	for l := range p.lines {
		s, e := p.lines.bounds(src, l)
		line := sc.noComments[s:e]
		ind := 0
		for ind < len(line) && (line[ind] == ' ' || line[ind] == '\t') {
			ind++
		}
		if ind == len(line) || sc.code[s+ind] == ' ' {
			continue // blank, or starts in a comment or string
		}
		for _, dc := range decls {
			if dc.top && ind > 0 {
				continue
			}
			m := dc.re.FindSubmatchIndex(line)
			if m == nil {
				continue
			}
			if dc.kind == KindUnknown {
				break // a line that looks like a definition and is not one
			}
			ns, ne := m[2*dc.name], m[2*dc.name+1]
			if ns < 0 {
				continue
			}
			name := strings.Trim(foldSpace(line[ns:ne], MaxSignatureBytes), `"`)
			if name == "" && dc.kind == KindStruct {
				name = "struct" // Elixir defstruct: the module's struct
			}
			if name == "" || h.keywords.words()[name] {
				continue
			}
			name = dc.prefix + name
			for len(stack) > 0 && defs[stack[len(stack)-1]].indent >= ind {
				stack = stack[:len(stack)-1]
			}
			parent := -1
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			if dc.notInFunc && parent >= 0 && (defs[parent].kind == KindFunc || defs[parent].kind == KindMethod) {
				break
			}
			// Another clause or equation of the definition just made
			// (Haskell's signature then equations, Erlang's clauses).
			if last >= 0 && defs[last].parent == parent && defs[last].name == name && defs[last].kind == dc.kind && defs[last].indent == ind {
				stack = append(stack, last)
				break
			}
			if len(defs) >= maxLexDefs {
				break
			}
			defs = append(defs, lexDef{line: l, indent: ind, nameOff: s + ns, kind: dc.kind, name: name, parent: parent})
			last = len(defs) - 1
			stack = append(stack, last)
			break
		}
	}
	// Extents: up to the next definition at the same or a lower
	// indentation, within the parent; trailing blank lines dropped.
	lastLine := len(p.lines) - 1
	if lastLine > 0 && int(p.lines[lastLine]) == len(src) {
		lastLine-- // the empty line after a final newline
	}
	for i := range defs {
		limit := lastLine
		if pa := defs[i].parent; pa >= 0 {
			limit = defs[pa].end
		}
		end := limit
		for j := i + 1; j < len(defs) && defs[j].line <= limit; j++ {
			if defs[j].indent <= defs[i].indent {
				end = defs[j].line - 1
				break
			}
		}
		if c := p.closerLine(h, src, sc, defs[i].line, end, defs[i].indent); c >= 0 {
			end = c
		}
		for end > defs[i].line {
			s, e := p.lines.bounds(src, end)
			if len(bytes.TrimSpace(sc.code[s:e])) > 0 {
				if k := p.docSkipStart(h, src, sc, end); k > defs[i].line {
					end = k - 1 // the next definition's -spec
					continue
				}
				break
			}
			end--
		}
		defs[i].end = max(end, defs[i].line)
	}
	return defs
}

// closerLine returns the first line after 0-based line first, up to
// last, that sits at indentation ind and starts with one of h.closers (the
// "}" or "end" that closes the definition on line first), or -1.
func (p *Parser) closerLine(h *heurLang, src []byte, sc *lexScan, first, last, ind int) int {
	for l := first + 1; l <= last && len(h.closers) > 0; l++ {
		s, e := p.lines.bounds(src, l)
		code := sc.code[s:e]
		k := 0
		for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
			k++
		}
		if k != ind || k == len(code) {
			continue
		}
		for _, c := range h.closers {
			rest, ok := bytes.CutPrefix(code[k:], []byte(c))
			if ok && (len(rest) == 0 || !lexIdentByte(h, c[0]) || !lexIdentByte(h, rest[0])) {
				return l
			}
		}
	}
	return -1
}

// commentOnly reports whether 0-based line l holds comment or string text
// and no code.
func (p *Parser) commentOnly(src []byte, sc *lexScan, l int) bool {
	s, e := p.lines.bounds(src, l)
	return len(bytes.TrimSpace(sc.code[s:e])) == 0 && len(bytes.TrimSpace(src[s:e])) > 0
}

// lexDoc returns the doc of the definition on 0-based line n: the lines
// below it first when h.docBelow, else the comment lines above.
func (p *Parser) lexDoc(h *heurLang, src []byte, sc *lexScan, n int, used []bool) string {
	if h.docBelow {
		last := n + 1
		for last < len(p.lines) && last-n < 200 && !used[last] && p.commentOnly(src, sc, last) {
			last++
		}
		if last > n+1 {
			for k := n + 1; k < last; k++ {
				used[k] = true
			}
			return p.lexDocText(h, src, n+1, last-1)
		}
	}
	return p.lexDocAbove(h, src, sc, n, used)
}

// lexDocAbove returns the comment lines directly above 0-based line n
// (attribute lines starting with '@' and h.docSkip lines skipped),
// markers stripped. Lines already used as another definition's doc end
// the block.
func (p *Parser) lexDocAbove(h *heurLang, src []byte, sc *lexScan, n int, used []bool) string {
	l := n - 1
	for l >= 0 {
		s, e := p.lines.bounds(src, l)
		if t := bytes.TrimSpace(src[s:e]); len(t) > 0 && t[0] == '@' {
			l--
			continue
		}
		if k := p.docSkipStart(h, src, sc, l); k >= 0 {
			l = k - 1
			continue
		}
		break
	}
	top := l
	for top >= 0 && n-top < 200 && !used[top] && p.commentOnly(src, sc, top) {
		top--
	}
	if top == l {
		return ""
	}
	for k := top + 1; k <= l; k++ {
		used[k] = true
	}
	return p.lexDocText(h, src, top+1, l)
}

// docSkipStart returns the first line of the h.docSkip attribute (up to
// 8 lines long) that ends on 0-based line l, or -1.
func (p *Parser) docSkipStart(h *heurLang, src []byte, sc *lexScan, l int) int {
	for k := l; k >= 0 && k > l-8 && len(h.docSkip) > 0; k-- {
		s, e := p.lines.bounds(src, k)
		if len(bytes.TrimSpace(src[s:e])) == 0 || p.commentOnly(src, sc, k) {
			return -1
		}
		for _, pre := range h.docSkip {
			if bytes.HasPrefix(src[s:e], []byte(pre)) {
				return k
			}
		}
	}
	return -1
}

// lexDocText joins lines first..last with comment markers stripped.
func (p *Parser) lexDocText(h *heurLang, src []byte, first, last int) string {
	var lines [][]byte
	for k := first; k <= last; k++ {
		s, e := p.lines.bounds(src, k)
		raw := bytes.TrimSpace(src[s:e])
		if bytes.HasPrefix(raw, []byte("{-#")) || k == 0 && bytes.HasPrefix(raw, []byte("#!")) {
			continue // a pragma, a shebang
		}
		t := stripCommentMarkers(h, raw)
		if len(t) > 0 && (t[0] == '#' || t[0] == '!') {
			continue // {-# LANGUAGE … #-} pragmas, shebangs
		}
		if len(bytes.Trim(t, "-=*#/%;~+_ ")) == 0 {
			t = nil // a ruler
		}
		lines = append(lines, t)
	}
	var b strings.Builder
	para := false
	for _, t := range lines {
		if len(t) == 0 {
			para = b.Len() > 0
			continue
		}
		if b.Len() > 0 {
			if para {
				b.WriteString("\n\n")
			} else {
				b.WriteByte('\n')
			}
		}
		para = false
		b.Write(t)
		if b.Len() > MaxDocBytes {
			break
		}
	}
	return truncate(validString([]byte(b.String())), MaxDocBytes)
}

// stripCommentMarkers removes a comment line's markers: the line or block
// delimiters, then one of the doc-comment characters "|^*/!<" and a space.
func stripCommentMarkers(h *heurLang, t []byte) []byte {
	for _, b := range h.block {
		t = bytes.TrimPrefix(t, []byte(b[0]))
		t = bytes.TrimSuffix(t, []byte(b[1]))
	}
	for _, m := range h.line {
		for bytes.HasPrefix(t, []byte(m)) {
			t = t[len(m):]
		}
	}
	// Docstrings: Julia's """…""" and "…", Clojure's "…" over lines.
	t = bytes.TrimPrefix(t, []byte(`"""`))
	t = bytes.TrimSuffix(t, []byte(`"""`))
	t = bytes.TrimPrefix(t, []byte(`"`))
	if !bytes.HasSuffix(t, []byte(`\"`)) {
		t = bytes.TrimSuffix(t, []byte(`"`))
	}
	t = bytes.TrimSpace(t)
	if len(t) > 0 && strings.IndexByte("|^*/!<", t[0]) >= 0 {
		t = t[1:]
	}
	t = bytes.TrimSpace(t)
	if rest, ok := bytes.CutPrefix(t, []byte("@doc")); ok && (len(rest) == 0 || rest[0] == ' ') {
		t = bytes.TrimSpace(rest) // Erlang's edoc tag
	}
	return t
}

// lexFileDoc returns the first comment block of the file before any code
// (compiler pragmas such as Haskell's {-# LANGUAGE #-} skipped), unless it
// is the first definition's doc.
func (p *Parser) lexFileDoc(h *heurLang, src []byte, sc *lexScan, used []bool) string {
	first, last := -1, -1
	for l := range p.lines {
		s, e := p.lines.bounds(src, l)
		t := bytes.TrimSpace(src[s:e])
		switch {
		case len(t) == 0:
			if first >= 0 {
				return p.lexBlockDoc(h, src, first, last, used)
			}
			continue
		case !p.commentOnly(src, sc, l):
			if l == 0 && bytes.HasPrefix(t, []byte("#!")) {
				continue
			}
			return p.lexBlockDoc(h, src, first, last, used)
		case used[l]:
			return ""
		}
		if first < 0 {
			if bytes.HasPrefix(t, []byte("{-#")) {
				// A pragma: skip to its end.
				for l2 := l; l2 < len(p.lines); l2++ {
					used[l2] = true
					s2, e2 := p.lines.bounds(src, l2)
					if bytes.Contains(src[s2:e2], []byte("#-}")) {
						break
					}
				}
				continue
			}
			first = l
		}
		if used[l] {
			continue
		}
		last = l
	}
	return p.lexBlockDoc(h, src, first, last, used)
}

func (p *Parser) lexBlockDoc(h *heurLang, src []byte, first, last int, used []bool) string {
	if first < 0 || last < first {
		return ""
	}
	for k := first; k <= last; k++ {
		used[k] = true
	}
	return p.lexDocText(h, src, first, last)
}

// lexRefs makes a ref of every identifier in code outside the definition
// names, enclosed by the definition of its line.
func (p *Parser) lexRefs(h *heurLang, code []byte, defs []lexDef, encl []int32, f *Facts) {
	names := make(map[int]bool, len(defs))
	for _, d := range defs {
		names[d.nameOff] = true
	}
	line := 0
	for i := 0; i < len(code) && len(f.Refs) < maxLexRefs; {
		c := code[i]
		if c == '\n' {
			line++
			i++
			continue
		}
		if !lexIdentStart(c) {
			if lexIdentByte(h, c) {
				for i < len(code) && lexIdentByte(h, code[i]) {
					i++ // a number, or an identifier's tail characters
				}
				continue
			}
			i++
			continue
		}
		j := i
		for j < len(code) && lexIdentByte(h, code[j]) {
			j++
		}
		tok := code[i:j]
		start := i
		i = j
		if len(tok) < 2 || names[start] || h.keywords.words()[string(tok)] || !utf8.Valid(tok) {
			continue
		}
		kind := RefSelector
		k := j
		for k < len(code) && code[k] == ' ' {
			k++
		}
		switch {
		case k < len(code) && code[k] == '(':
			kind = RefCall
		case tok[0] >= 'A' && tok[0] <= 'Z':
			kind = RefType
		}
		ref := Ref{Name: p.intern.get(tok), Kind: kind, Line: int32(line + 1), Enclosing: -1}
		if line < len(encl) {
			ref.Enclosing = int32(encl[line])
		}
		if start >= 2 && (code[start-1] == '.' || code[start-1] == ':') {
			q := start - 1
			for q > 0 && code[q-1] == ':' {
				q--
			}
			qe := q
			for q > 0 && lexIdentByte(h, code[q-1]) {
				q--
			}
			if qe > q && lexIdentStart(code[q]) {
				ref.Qualifier = p.intern.get(code[q:qe])
			}
		}
		f.Refs = append(f.Refs, ref)
	}
}

// lexLiterals makes literals of the strings and of the comments not used
// as docs, once per enclosing definition.
func (p *Parser) lexLiterals(h *heurLang, src []byte, sc *lexScan, encl []int32, docLines []bool, f *Facts) {
	type key struct {
		text string
		enc  int
	}
	seen := map[key]bool{}
	add := func(b []byte, off uint32) {
		if len(f.Literals) >= maxLexLiterals || !hasLetter(b) {
			return
		}
		text := foldSpace(b, maxLiteralBytes)
		l := p.lines.line(off)
		enc := -1
		if l < len(encl) {
			enc = int(encl[l])
		}
		k := key{text, enc}
		if !seen[k] {
			seen[k] = true
			f.Literals = append(f.Literals, Literal{Text: text, Enclosing: enc})
		}
	}
	ci := 0
	for _, s := range sc.strs {
		// Comments and strings interleave in source order.
		for ci < len(sc.comments) && sc.comments[ci][0] < s[0] {
			p.lexCommentLiteral(h, src, sc.comments[ci], docLines, add)
			ci++
		}
		add(src[s[0]:s[1]], s[0])
	}
	for ; ci < len(sc.comments); ci++ {
		p.lexCommentLiteral(h, src, sc.comments[ci], docLines, add)
	}
}

func (p *Parser) lexCommentLiteral(h *heurLang, src []byte, c [2]uint32, docLines []bool, add func([]byte, uint32)) {
	if l := p.lines.line(c[0]); l < len(docLines) && docLines[l] {
		return
	}
	add(stripCommentMarkers(h, bytes.TrimSpace(src[c[0]:c[1]])), c[0])
}

func hasLetter(b []byte) bool {
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			return true
		}
	}
	return false
}

// lexText indexes a text file no language claims: its first paragraph is
// its doc, its paragraphs are literals and its words identifiers.
func (p *Parser) lexText(src []byte, f *Facts) {
	h := heurByName[textLang]
	var para []byte
	flush := func() {
		if t := bytes.TrimSpace(para); len(t) > 0 {
			if f.Doc == "" {
				f.Doc = truncate(validString(t), MaxDocBytes)
			}
			if len(f.Literals) < maxLexLiterals && hasLetter(t) {
				f.Literals = append(f.Literals, Literal{Text: foldSpace(t, maxLiteralBytes), Enclosing: -1})
			}
		}
		para = para[:0]
	}
	for l := range p.lines {
		s, e := p.lines.bounds(src, l)
		if len(bytes.TrimSpace(src[s:e])) == 0 {
			flush()
			continue
		}
		para = append(para, src[s:e]...)
		para = append(para, '\n')
	}
	flush()
	p.lexRefs(h, src, nil, nil, f)
}
