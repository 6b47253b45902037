package parser

import (
	"bytes"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// role is what a query capture means to the extractor. The .scm files (and
// langSpec.nodes) name captures after roles:
//
//	@def.<kind>    a definition node (kind as in DefKind.String); paired with @name
//	@name          the definition's (possibly qualified) name
//	@scope         a node that qualifies definitions inside it without being
//	               one (Rust impl); paired with @name
//	@receiver      Go method receiver type
//	@ref.call, @ref.type, @ref.sel   a reference, the node is its name
//	@ref.jsx       a JSX tag; lower-case (HTML) tags are dropped
//	@qual          the expression left of a @ref.* in the same match
//	@bind, @bind.type  a local name (receiver, parameter, variable) and the
//	               type its declaration gives it (Ref.Type)
//	@import.path, @import.alias      an import's path and local name
//	@import.stmt   a whole import statement, taken apart in Go per language
//	@import.fn     a call's function name; the match is an import only for
//	               require-like names
//	@doc, @doc.owner  a docstring (Python, Elixir @doc) or doc comment (Elm
//	               {-| -} above a type annotation) and the definition it
//	               documents; it wins over the comment above the definition
//	@package       the Go package clause (its doc is the package doc)
//	@literal       a string literal (Facts.Literals)
//	@keyword       the word that makes a generic node a definition, import or
//	               doc (Elixir def, alias, @doc; Bash source): the match is
//	               kept only when langSpec.keywords maps the word to the
//	               pattern's kind (KindUnknown for non-definitions); a
//	               definition without @name is named by its keyword
//	@macro.items   a macro call's token tree at item position whose body is
//	               parsed again as items (Rust cfg_net! { pub struct ... })
//	@heading, @paragraph  Markdown blocks
type role uint8

const (
	roleIgnore role = iota
	roleName
	roleScope
	roleReceiver
	roleRefCall
	roleRefType
	roleRefSel
	roleRefJSX
	roleQual
	roleImportPath
	roleImportAlias
	roleImportStmt
	roleImportFn
	roleDoc
	roleDocOwner
	rolePackage
	roleHeading
	roleParagraph
	roleLiteral
	roleKeyword
	roleMacroItems
	roleBind
	roleBindType
	roleDef // roleDef + role(kind) for each DefKind
)

var roleByName = func() map[string]role {
	m := map[string]role{
		"name": roleName, "scope": roleScope, "receiver": roleReceiver,
		"ref.call": roleRefCall, "ref.type": roleRefType, "ref.sel": roleRefSel, "ref.jsx": roleRefJSX,
		"qual": roleQual, "import.path": roleImportPath, "import.alias": roleImportAlias,
		"import.stmt": roleImportStmt, "import.fn": roleImportFn, "doc": roleDoc, "doc.owner": roleDocOwner,
		"package": rolePackage, "heading": roleHeading, "paragraph": roleParagraph, "literal": roleLiteral,
		"keyword":     roleKeyword,
		"macro.items": roleMacroItems,
		"bind":        roleBind, "bind.type": roleBindType,
	}
	for k := KindFunc; int(k) < len(kindNames); k++ {
		m["def."+k.String()] = roleDef + role(k)
	}
	return m
}()

// rawDef is a definition or scope as found by the query, before nesting is
// known. Offsets are byte offsets into the source.
type rawDef struct {
	start, end         uint32
	nameStart, nameEnd uint32
	recvStart, recvEnd uint32 // Go receiver type; recvEnd == 0 when absent
	kind               DefKind
	scope              bool // qualifies nested definitions but is not one
	parent             int32
	qualified          string
	name               string
	out                int32 // index in Facts.Defs, -1 for scopes
}

type rawRef struct {
	start, end   uint32
	qStart, qEnd uint32 // qualifier; qEnd == 0 when absent
	kind         RefKind
}

type rawStr struct{ start, end uint32 }

// rawBind is a local name and the type node its declaration gives it.
type rawBind struct {
	start, end         uint32
	typeStart, typeEnd uint32
}

type rawDoc struct {
	owner      uint32 // start offset of the documented definition
	start, end uint32
}

// kindRank orders duplicate captures of one name: the most specific kind
// wins (a Go type_spec matched as struct and as type is a struct).
// A const beats a var or field (Kotlin const val, Swift top-level let), and
// any other type kind beats class (Kotlin enum class).
func kindRank(k DefKind) int {
	switch k {
	case KindVar:
		return 1
	case KindType:
		return 2
	case KindField:
		return 3
	case KindConst:
		return 4
	case KindFunc:
		return 5
	case KindMethod:
		return 6
	case KindClass:
		return 7
	}
	return 8
}

// nodeRange returns the node's byte range clipped to a source of srcLen
// bytes.
func nodeRange(n *sitter.Node, srcLen int) (uint32, uint32) {
	return clipRange(n.StartByte(), n.EndByte(), srcLen)
}

// span returns the captured node's byte range clipped to a source of
// srcLen bytes.
func (c *capture) span(srcLen int) (uint32, uint32) {
	return clipRange(c.start, c.end, srcLen)
}

func clipRange(s, e uint32, srcLen int) (uint32, uint32) {
	if e > uint32(srcLen) {
		e = uint32(srcLen)
	}
	if s > e {
		s = e
	}
	return s, e
}

// extractCode runs the language's query over the tree and turns the matches
// into f's Defs, Refs, Imports and Doc.
func (p *Parser) extractCode(s *langSpec, tree *sitter.Tree, src []byte, f *Facts) {
	root := tree.RootNode()
	p.defs, p.refs, p.docs, p.imports = p.defs[:0], p.refs[:0], p.docs[:0], p.imports[:0]
	p.binds = p.binds[:0]
	p.names = p.names[:0] // buildDefs leaves the previous file's names when there are no defs
	p.strs, p.impAt, p.bodies = p.strs[:0], p.impAt[:0], p.bodies[:0]
	p.intern.reset()
	pkgStart := p.takeMatches(s, src, p.mt.exec(s.prog, root), nil, -1)
	if s.prog.residual != nil {
		pkgStart = p.takeMatches(s, src, p.mt.run(s.prog.residual, root), s.prog.remap, pkgStart)
	}
	p.macroItems(s, src)

	p.buildDefs(s, src, f)
	p.buildRefs(src, f)
	p.buildLiterals(s, src, f)
	if len(p.imports) > 0 {
		f.Imports = dedupeImports(slices.Clone(p.imports))
	}
	f.Doc = p.fileDoc(s, root, src, pkgStart)
}

// takeMatches turns a record of query matches into raw definitions,
// references, docs and imports; remap, when not nil, maps the record's
// capture indexes to the query's. It returns the package clause's start,
// or pkgStart if the record has none.
func (p *Parser) takeMatches(s *langSpec, src []byte, rec []uint32, remap []uint32, pkgStart int64) int64 {
	n := len(src)
	for {
		caps, rest, ok := nextMatch(rec)
		if !ok {
			break
		}
		rec = rest
		var main, name, qual, recv, alias, path, fn, kw, btype *capture
		mainRole := roleIgnore
		for i := range caps {
			c := &caps[i]
			idx := c.index
			if remap != nil {
				idx = remap[idx]
			}
			r := s.roles[idx]
			switch {
			case r == roleName:
				name = c
			case r == roleQual:
				qual = c
			case r == roleReceiver:
				recv = c
			case r == roleImportAlias:
				alias = c
			case r == roleImportPath:
				path = c
			case r == roleImportFn:
				fn = c
			case r == roleDoc:
				path = c
			case r == roleKeyword:
				kw = c
			case r == roleBindType:
				btype = c
			default:
				main, mainRole = c, r
			}
		}
		if kw != nil {
			want := KindUnknown
			if mainRole > roleDef {
				want = DefKind(mainRole - roleDef)
			}
			ks, ke := kw.span(n)
			if k, ok := s.keywords[string(src[ks:ke])]; !ok || k != want {
				continue
			}
			if name == nil {
				name = kw
			}
		}
		switch {
		case mainRole >= roleRefCall && mainRole <= roleRefJSX && main != nil:
			st, en := main.span(n)
			st = skipBlanks(src, st, en)
			if st == en {
				continue
			}
			k := RefCall
			switch mainRole {
			case roleRefType:
				k = RefType
			case roleRefSel:
				k = RefSelector
			case roleRefJSX:
				if c := src[st]; c >= 'a' && c <= 'z' {
					continue
				}
			}
			r := rawRef{start: st, end: en, kind: k}
			if qual != nil {
				r.qStart, r.qEnd = qual.span(n)
			} else if s.builtins.words()[string(src[st:en])] {
				continue
			}
			p.refs = append(p.refs, r)
		case mainRole > roleDef || mainRole == roleScope:
			if main == nil || name == nil {
				continue
			}
			d := rawDef{kind: KindUnknown, scope: mainRole == roleScope}
			if !d.scope {
				d.kind = DefKind(mainRole - roleDef)
			}
			d.start, d.end = main.span(n)
			d.nameStart, d.nameEnd = name.span(n)
			d.nameStart = skipBlanks(src, d.nameStart, d.nameEnd)
			d.start = skipLead(s, src, d.start, d.nameStart)
			if recv != nil {
				d.recvStart, d.recvEnd = recv.span(n)
			}
			if d.nameStart == d.nameEnd || s.defHook != nil && !s.defHook(src, &d) {
				continue
			}
			p.defs = append(p.defs, d)
		case mainRole == roleDocOwner:
			if main != nil && path != nil {
				st, _ := main.span(n)
				ds, de := path.span(n)
				p.docs = append(p.docs, rawDoc{owner: st, start: ds, end: de})
			}
		case mainRole == roleBind:
			if main != nil && btype != nil {
				st, en := main.span(n)
				ts, te := btype.span(n)
				p.binds = append(p.binds, rawBind{st, en, ts, te})
			}
		case mainRole == roleMacroItems:
			if main != nil {
				st, en := main.span(n)
				p.bodies = append(p.bodies, rawStr{st, en})
			}
		case mainRole == roleLiteral:
			if main != nil {
				st, en := main.span(n)
				p.strs = append(p.strs, rawStr{st, en})
			}
		case mainRole == rolePackage:
			if main != nil && pkgStart < 0 {
				st, _ := main.span(n)
				pkgStart = int64(st)
			}
		case mainRole == roleImportStmt && main != nil:
			st, en := main.span(n)
			p.importStmt(s, src, st, en)
		default:
			if path == nil {
				continue
			}
			if fn != nil {
				st, en := fn.span(n)
				if !isRequire(s, src[st:en]) {
					continue
				}
			}
			st, en := path.span(n)
			p.impAt = append(p.impAt, st)
			imp := Import{Path: unquote(src[st:en]), Line: p.lines.line(st) + 1}
			if alias != nil {
				as, ae := alias.span(n)
				imp.Alias = validString(src[as:ae])
			}
			if imp.Path != "" {
				p.imports = append(p.imports, imp)
			}
		}
	}
	return pkgStart
}

// maxLiteralBytes bounds a literal's text: its head names what it is (a
// key, a flag, a message); a long template's tail would crowd the index.
const maxLiteralBytes = 200

// buildLiterals fills f.Literals from the collected string literals: their
// text, once per enclosing definition, skipping import paths, docstrings
// and literals without a letter.
func (p *Parser) buildLiterals(s *langSpec, src []byte, f *Facts) {
	strs := p.strs
	if len(strs) == 0 {
		return
	}
	slices.SortFunc(strs, func(a, b rawStr) int { return int(a.start) - int(b.start) })
	slices.Sort(p.impAt)
	outer := p.newEncloser()
	type key struct {
		text string
		enc  int
	}
	seen := map[key]bool{}
	var docAt map[uint32]bool // docstrings are docs, not literals
	for _, d := range p.docs {
		if docAt == nil {
			docAt = make(map[uint32]bool)
		}
		docAt[d.start] = true
	}
	ii := 0
	for _, r := range strs {
		if docAt[r.start] {
			continue
		}
		for ii < len(p.impAt) && p.impAt[ii] < r.start {
			ii++
		}
		if ii < len(p.impAt) && p.impAt[ii] < r.end {
			continue // an import path
		}
		text, ok := literalText(s, src[r.start:r.end])
		if !ok {
			continue
		}
		enc := outer.at(r.start)
		k := key{text, enc}
		if seen[k] {
			continue
		}
		seen[k] = true
		f.Literals = append(f.Literals, Literal{Text: text, Enclosing: enc})
	}
	p.stack = outer.stack
}

// encloser finds the innermost output definition around offsets given in
// increasing order, in one sweep over the definitions (buildDefs sorted
// them by start).
type encloser struct {
	defs  []rawDef
	idx   []int32 // the output definitions, in start order
	stack []int32
	next  int
}

// newEncloser starts a sweep over p.defs, reusing p's scratch; hand
// e.stack back to p.stack when done.
func (p *Parser) newEncloser() encloser {
	idx := p.defIdx[:0]
	for i := range p.defs {
		if !p.defs[i].scope {
			idx = append(idx, int32(i))
		}
	}
	p.defIdx = idx
	return encloser{defs: p.defs, idx: idx, stack: p.stack[:0]}
}

// at returns the Facts.Defs index of the innermost definition containing
// off, or -1.
func (e *encloser) at(off uint32) int {
	defs, idx := e.defs, e.idx
	for e.next < len(idx) && defs[idx[e.next]].start <= off {
		d := &defs[idx[e.next]]
		for len(e.stack) > 0 && defs[idx[e.stack[len(e.stack)-1]]].end <= d.start {
			e.stack = e.stack[:len(e.stack)-1]
		}
		e.stack = append(e.stack, int32(e.next))
		e.next++
	}
	for len(e.stack) > 0 && defs[idx[e.stack[len(e.stack)-1]]].end <= off {
		e.stack = e.stack[:len(e.stack)-1]
	}
	if len(e.stack) == 0 {
		return -1
	}
	return int(defs[idx[e.stack[len(e.stack)-1]]].out)
}

// literalText is a string literal's content: prefix (r, b, f, @, $), quotes
// and raw-string hashes removed, whitespace folded, cut at maxLiteralBytes.
// It reports false for a literal worth nothing to search: one without a
// letter, or a Python triple-quoted string (docstrings, and blocks of text
// or source that ranking already sees elsewhere or should not).
func literalText(s *langSpec, b []byte) (string, bool) {
	i := 0
	for i < len(b) && i < 3 && (b[i] >= 'a' && b[i] <= 'z' || b[i] >= 'A' && b[i] <= 'Z' || b[i] == '@' || b[i] == '$') {
		i++
	}
	// A prefix is followed by its quote; an unquoted value (YAML, a
	// Dockerfile command) starts with its text.
	if i < len(b) && (b[i] == '"' || b[i] == '\'' || b[i] == '`' || b[i] == '#') {
		b = b[i:]
	}
	if s.name == "python" && (bytes.HasPrefix(b, []byte(`"""`)) || bytes.HasPrefix(b, []byte("'''"))) {
		return "", false
	}
	b = bytes.TrimLeft(b, "#\"'`")
	b = bytes.TrimRight(b, "#\"'`")
	if len(b) > maxLiteralBytes*2 {
		b = b[:maxLiteralBytes*2]
	}
	letter := false
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			letter = true
			break
		}
	}
	if !letter {
		return "", false
	}
	return foldSpace(b, maxLiteralBytes), true
}

func isRequire(s *langSpec, fn []byte) bool {
	switch string(fn) {
	case "require":
		return true
	case "require_relative", "load":
		return s.name == "ruby"
	}
	return false
}

// unquote strips quotes or angle brackets around an import path.
func unquote(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) >= 2 {
		switch {
		case b[0] == '"' && b[len(b)-1] == '"', b[0] == '\'' && b[len(b)-1] == '\'',
			b[0] == '`' && b[len(b)-1] == '`', b[0] == '<' && b[len(b)-1] == '>':
			b = b[1 : len(b)-1]
		}
	}
	return foldSpace(b, 512)
}

// importStmt takes apart a whole import statement (Java import, C# using,
// Rust use argument, PHP use clause or require/include, HCL module source).
func (p *Parser) importStmt(s *langSpec, src []byte, st, en uint32) {
	text := strings.TrimSpace(foldSpace(src[st:en], 512))
	line := p.lines.line(st) + 1
	if s.splitImport != nil {
		s.splitImport(text, func(path, alias string) {
			p.imports = append(p.imports, Import{Path: path, Alias: alias, Line: line})
		})
		return
	}
	var path, alias string
	switch s.name {
	case "java":
		text = strings.TrimSuffix(strings.TrimPrefix(text, "import "), ";")
		text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "static "))
		path = strings.ReplaceAll(text, " ", "")
	case "csharp":
		text = strings.TrimSuffix(text, ";")
		text = strings.TrimPrefix(text, "global ")
		text = strings.TrimPrefix(text, "using ")
		text = strings.TrimPrefix(text, "static ")
		if i := strings.IndexByte(text, '='); i >= 0 {
			alias, path = strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+1:])
		} else {
			path = strings.TrimSpace(text)
		}
	case "rust":
		path = text
		if i := strings.LastIndex(text, " as "); i >= 0 && !strings.ContainsAny(text, "{}") {
			path, alias = strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+4:])
		}
	case "php":
		switch {
		case strings.HasPrefix(text, "require") || strings.HasPrefix(text, "include"):
			// The last quoted string: require_once __DIR__ . '/x.php'.
			q := strings.LastIndexAny(text, "'\"")
			if q <= 0 {
				return
			}
			open := strings.LastIndexByte(text[:q], text[q])
			if open < 0 {
				return
			}
			path = text[open+1 : q]
		default:
			path = text
			if i := strings.LastIndex(text, " as "); i >= 0 {
				path, alias = strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+4:])
			}
			path = strings.TrimPrefix(strings.TrimPrefix(path, "function "), "const ")
			path = strings.TrimPrefix(path, "\\")
		}
	case "hcl":
		// A module's source attribute: source = "./modules/vpc".
		k, v, ok := strings.Cut(text, "=")
		if !ok || strings.TrimSpace(k) != "source" {
			return
		}
		path = unquote([]byte(v))
		if strings.ContainsAny(path, "\"${}") {
			return
		}
	default:
		path = text
	}
	if path != "" {
		p.imports = append(p.imports, Import{Path: path, Alias: alias, Line: line})
	}
}

// buildDefs dedupes the raw definitions, nests them by byte range, and
// fills f.Defs with names, qualified names, kinds, signatures and docs.
func (p *Parser) buildDefs(s *langSpec, src []byte, f *Facts) {
	defs := p.defs
	if len(defs) == 0 {
		return
	}
	defs = dedupeDefs(defs)
	if s.name == "csharp" || s.name == "php" || s.fileScoped {
		extendFileScoped(defs, src)
	}
	if s.untilNext != KindUnknown {
		extendUntilNext(defs, s.untilNext, uint32(len(src)))
	}
	out := p.nestDefs(defs)

	f.Defs = make([]Def, 0, out)
	docs := p.docs
	slices.SortFunc(docs, func(a, b rawDoc) int { return int(a.owner) - int(b.owner) })
	for i := range defs {
		d := &defs[i]
		parent := qualifyDef(s, src, defs, d)
		if d.scope {
			continue
		}
		f.Defs = append(f.Defs, p.makeDef(s, src, defs, d, parent, docs))
	}
	p.defNameOffsets(defs)
	p.defs = defs
}

// dedupeDefs drops repeated captures of one name node, keeping the most
// specific kind.
func dedupeDefs(defs []rawDef) []rawDef {
	slices.SortFunc(defs, func(a, b rawDef) int {
		if a.nameStart != b.nameStart {
			return int(a.nameStart) - int(b.nameStart)
		}
		return kindRank(b.kind) - kindRank(a.kind)
	})
	w := 0
	for i := range defs {
		if i > 0 && defs[i].nameStart == defs[w-1].nameStart {
			continue
		}
		defs[w] = defs[i]
		w++
	}
	return defs[:w]
}

// extendFileScoped makes a namespace ending in ';' (C# file-scoped, PHP
// braceless) cover the rest of the file up to the next such namespace.
func extendFileScoped(defs []rawDef, src []byte) {
	for i := range defs {
		d := &defs[i]
		if d.kind == KindModule && d.end > d.start && src[d.end-1] == ';' {
			d.end = uint32(len(src))
			for j := range defs {
				o := &defs[j]
				if o.kind == KindModule && o.start > d.start && src[max(o.end, 1)-1] == ';' && o.start < d.end {
					d.end = o.start
				}
			}
		}
	}
}

// extendUntilNext makes definitions of kind k (Dockerfile stages) run to
// the next one, or to srcLen.
func extendUntilNext(defs []rawDef, k DefKind, srcLen uint32) {
	for i := range defs {
		if d := &defs[i]; d.kind == k {
			d.end = srcLen
			for j := range defs {
				if o := &defs[j]; o.kind == k && o.start > d.start && o.start < d.end {
					d.end = o.start
				}
			}
		}
	}
}

// nestDefs sorts defs by start, longer first, and sweeps them with a
// stack to set each one's parent and its index in Facts.Defs (out, -1 for
// scopes). It returns how many are definitions.
func (p *Parser) nestDefs(defs []rawDef) int32 {
	slices.SortFunc(defs, func(a, b rawDef) int {
		if a.start != b.start {
			return int(a.start) - int(b.start)
		}
		if a.end != b.end {
			return int(b.end) - int(a.end)
		}
		return int(a.nameStart) - int(b.nameStart)
	})
	stack := p.stack[:0]
	out := int32(0)
	for i := range defs {
		d := &defs[i]
		for len(stack) > 0 {
			t := &defs[stack[len(stack)-1]]
			if t.end <= d.start || (t.start == d.start && t.end == d.end) {
				stack = stack[:len(stack)-1]
				continue
			}
			break
		}
		d.parent = -1
		// Type aliases, typedefs, variables and fields do not qualify what
		// they contain (typedef struct point {...} point_t).
		for k := len(stack) - 1; k >= 0; k-- {
			if t := &defs[stack[k]]; t.scope || !transparent(t.kind) {
				d.parent = stack[k]
				break
			}
		}
		stack = append(stack, int32(i))
		if d.scope {
			d.out = -1
		} else {
			d.out = out
			out++
		}
	}
	p.stack = stack
	return out
}

// defParent is what a definition takes from the definition or scope that
// encloses it.
type defParent struct {
	qualified string
	kind      DefKind
	scope     bool
	def       int32 // index in Facts.Defs of the nearest enclosing definition (not scope), -1 if none
}

// qualifyDef sets d.name and d.qualified (the parent's qualified name, the
// receiver and the name's own qualifier, joined by dots) and returns what
// d takes from its parent. Parents come before children in defs.
func qualifyDef(s *langSpec, src []byte, defs []rawDef, d *rawDef) defParent {
	rawName := validString(src[d.nameStart:d.nameEnd])
	for _, c := range s.nameSeps {
		rawName = strings.ReplaceAll(rawName, string(c), ".")
	}
	var prefix, name string
	if s.nameHook != nil {
		prefix, name = s.nameHook(d.kind, rawName)
	} else {
		prefix, name = splitName(rawName)
	}
	if d.scope {
		name = lastIdent(name)
		prefix = ""
	}
	if d.recvEnd > 0 {
		prefix = joinDot(lastIdent(validString(src[d.recvStart:d.recvEnd])), prefix)
	}
	parent := defParent{def: -1}
	if d.parent >= 0 {
		pd := &defs[d.parent]
		parent.qualified, parent.kind, parent.scope = pd.qualified, pd.kind, pd.scope
		for a := d.parent; a >= 0; a = defs[a].parent {
			if !defs[a].scope {
				parent.def = defs[a].out
				break
			}
		}
	}
	d.name = name
	d.qualified = joinDot(joinDot(parent.qualified, prefix), name)
	return parent
}

// makeDef turns the qualified raw definition d into a Def: its kind as
// refined by its parent and signature, its lines, signature and doc
// (docs sorted by owner).
func (p *Parser) makeDef(s *langSpec, src []byte, defs []rawDef, d *rawDef, parent defParent, docs []rawDoc) Def {
	kind := d.kind
	if kind == KindFunc && (parent.scope || parent.kind == KindClass || parent.kind == KindStruct ||
		parent.kind == KindInterface || parent.kind == KindTrait || parent.kind == KindEnum) {
		kind = KindMethod
	}
	if s.name == "python" && kind == KindVar && isUpper(d.name) {
		kind = KindConst
	}
	sig := p.signature(s, src, d, kind)
	if kind == KindVar && s.varKinds != nil {
		if w, _, _ := strings.Cut(sig, " "); s.varKinds[w] != KindUnknown {
			kind = s.varKinds[w]
		}
	}
	startLine := p.lines.line(d.start)
	end := d.end
	if s.trimEnd {
		end = defEnd(s, src, d.start, d.end)
	}
	def := Def{
		Kind:      kind,
		Name:      d.name,
		Qualified: d.qualified,
		Parent:    int(parent.def),
		StartLine: startLine + 1,
		EndLine:   p.lines.endLine(d.start, end),
		Signature: sig,
	}
	if len(docs) > 0 {
		if j, ok := slices.BinarySearchFunc(docs, d.start, func(x rawDoc, t uint32) int { return int(x.owner) - int(t) }); ok {
			def.Doc = docText(s, src[docs[j].start:docs[j].end])
		}
	}
	// A member declared on its parent's first line, or on the line of its
	// parent's name (below the parent's annotations: a Kotlin class
	// parameter), has no doc of its own.
	if def.Doc == "" && (d.parent < 0 || p.lines.line(defs[d.parent].start) != startLine &&
		p.lines.line(defs[d.parent].nameStart) != startLine) {
		def.Doc = docAbove(src, p.lines, startLine, s)
	}
	if def.Doc == "" && s.docHook != nil {
		def.Doc = s.docHook(src[d.start:d.end])
	}
	return def
}

// defNameOffsets records in p.names the offsets of the last segment of
// every definition name: references at these offsets are the definitions
// themselves.
func (p *Parser) defNameOffsets(defs []rawDef) {
	names := p.names[:0]
	for i := range defs {
		d := &defs[i]
		names = append(names, d.nameEnd-uint32(min(len(d.name), int(d.nameEnd-d.nameStart))))
	}
	sortUint32(names)
	p.names = names
}

// defEnd backs a definition's end over trailing blanks and whole-line
// comments (langSpec.trimEnd).
func defEnd(s *langSpec, src []byte, start, end uint32) uint32 {
	open, close := s.comments.block()
	for end > start {
		e := end
		for e > start && (src[e-1] == ' ' || src[e-1] == '\t' || src[e-1] == '\n' || src[e-1] == '\r') {
			e--
		}
		ls := e
		for ls > start && src[ls-1] != '\n' {
			ls--
		}
		if ls == start {
			return e
		}
		if _, ok := commentLine(trimLine(src[ls:e]), s.comments); ok {
			end = ls
			continue
		}
		if close != "" && bytes.HasSuffix(src[ls:e], []byte(close)) {
			if i := bytes.LastIndex(src[start:e-uint32(len(close))], []byte(open)); i > 0 {
				o := start + uint32(i)
				bol := o
				for bol > start && (src[bol-1] == ' ' || src[bol-1] == '\t') {
					bol--
				}
				if bol > start && src[bol-1] == '\n' {
					end = bol
					continue
				}
			}
		}
		return e
	}
	return end
}

// docText turns a captured doc into text: a block comment of the
// language's style ({-| -}, (** *)) or a string literal (docstring).
func docText(s *langSpec, b []byte) string {
	if open, close := s.comments.block(); open != "" && bytes.HasPrefix(b, []byte(open)) {
		return cleanBlock(b, open, close)
	}
	return docstring(b)
}

// skipBlanks returns the offset of the first non-blank byte of
// src[st:en], or en: some grammars (Lua) start a node with the whitespace
// before it.
func skipBlanks(src []byte, st, en uint32) uint32 {
	for st < en && (src[st] == ' ' || src[st] == '\t' || src[st] == '\n' || src[st] == '\r') {
		st++
	}
	return st
}

// skipLead returns where a definition starting at st really begins: after
// blanks and whole comment lines that some grammars (Lua) put at the start
// of the definition's node, but not past its name at limit.
func skipLead(s *langSpec, src []byte, st, limit uint32) uint32 {
	for st < limit {
		if st = skipBlanks(src, st, limit); st == limit {
			break
		}
		e := st
		for e < limit && src[e] != '\n' {
			e++
		}
		if e == limit {
			break // the name is on this line
		}
		if _, ok := commentLine(trimLine(src[st:e]), s.comments); !ok {
			break
		}
		st = e
	}
	return st
}

func joinDot(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

func isUpper(s string) bool {
	hasLetter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			return false
		}
		if c >= 'A' && c <= 'Z' {
			hasLetter = true
		}
	}
	return hasLetter
}

// signature returns the definition's text up to its body, folded.
func (p *Parser) signature(s *langSpec, src []byte, d *rawDef, kind DefKind) string {
	start := int(d.start)
	switch s.name {
	case "javascript", "typescript", "tsx":
		// A variable declarator starts with its name: include the
		// const/let/var keyword before it.
		if d.start == d.nameStart {
			e := prevWordEnd(src, start)
			if kw := prevWord(src, start); kw == "const" || kw == "let" || kw == "var" {
				start = e - len(kw)
			}
		}
	}
	end := signatureEnd(src, start, int(d.end), s.sig, s.name == "rust")
	sig := foldSpace(src[start:end], MaxSignatureBytes)
	if s.name == "go" {
		var kw string
		switch kind {
		case KindType, KindStruct, KindInterface:
			kw = "type "
		case KindConst:
			kw = "const "
		case KindVar:
			kw = "var "
		}
		if kw != "" && !strings.HasPrefix(sig, kw) {
			sig = truncate(kw+sig, MaxSignatureBytes)
		}
	}
	return sig
}

// prevWordEnd returns the offset just after the word before start.
func prevWordEnd(src []byte, start int) int {
	i := start
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	return i
}

// prevWord returns the identifier that ends just before start, skipping
// whitespace.
func prevWord(src []byte, start int) string {
	e := prevWordEnd(src, start)
	b := e
	for b > 0 && isIdentByte(src[b-1]) && e-b < 16 {
		b--
	}
	return string(src[b:e])
}

// buildRefs merges duplicate captures of one name, drops definition names,
// finds each reference's innermost enclosing definition and fills f.Refs.
func (p *Parser) buildRefs(src []byte, f *Facts) {
	refs := p.refs
	if len(refs) == 0 {
		return
	}
	slices.SortFunc(refs, func(a, b rawRef) int {
		if a.start != b.start {
			return int(a.start) - int(b.start)
		}
		return int(a.kind) - int(b.kind)
	})
	binds := p.bindings(src)
	outer := p.newEncloser()
	names := p.names
	f.Refs = make([]Ref, 0, len(refs))
	ni := 0
	for i := 0; i < len(refs); i++ {
		r := refs[i]
		// Merge later captures of the same name: lowest kind wins (already
		// first), any qualifier fills in.
		for i+1 < len(refs) && refs[i+1].start == r.start {
			if r.qEnd == 0 {
				r.qStart, r.qEnd = refs[i+1].qStart, refs[i+1].qEnd
			}
			i++
		}
		for ni < len(names) && names[ni] < r.start {
			ni++
		}
		if ni < len(names) && names[ni] == r.start {
			continue
		}
		enc := outer.at(r.start)
		ref := Ref{Name: p.intern.get(src[r.start:r.end]), Kind: r.kind, Line: int32(p.lines.line(r.start) + 1), Enclosing: int32(enc)}
		if r.qEnd > r.qStart {
			ref.Selected = true
			q := src[r.qStart:r.qEnd]
			if len(q) > 1 && q[0] == '$' {
				q = q[1:] // PHP $this
			}
			if plainIdent(q) {
				ref.Qualifier = p.intern.get(q)
				ref.Type = qualifierType(f.Defs, binds, ref.Qualifier, enc)
			} else if binds != nil {
				ref.Type = fieldChainType(f.Defs, binds, q, enc)
			}
		}
		f.Refs = append(f.Refs, ref)
	}
	p.stack = outer.stack
}

// bindKey is a name bound inside one definition (-1: the file's level).
type bindKey struct {
	enclosing int
	name      string
}

// bindings maps the names p.binds declares, per enclosing definition, to
// their types (typeName); nil when there are none.
func (p *Parser) bindings(src []byte) map[bindKey]string {
	if len(p.binds) == 0 {
		return nil
	}
	slices.SortFunc(p.binds, func(a, b rawBind) int { return int(a.start) - int(b.start) })
	out := make(map[bindKey]string, len(p.binds))
	enc := p.newEncloser()
	for _, b := range p.binds {
		t := typeName(src[b.typeStart:b.typeEnd])
		if t == "" {
			continue
		}
		out[bindKey{enc.at(b.start), p.intern.get(src[b.start:b.end])}] = p.intern.get([]byte(t))
	}
	p.stack = enc.stack
	return out
}

// typeName turns a declared type into the name of the type whose members
// its values have: "*Reader" → "Reader", "url.URL", "List[T]" and
// "List<T>" → "List", "&mut Stock" → "Stock";
// "" for types with no members of their own ([]T, map, chan, func,
// literal struct and interface types).
func typeName(t []byte) string {
	t = bytes.TrimSpace(t)
	for len(t) > 0 && (t[0] == '*' || t[0] == '&') {
		t = bytes.TrimSpace(t[1:])
		t = bytes.TrimSpace(bytes.TrimPrefix(t, []byte("mut "))) // Rust &mut T
	}
	if i := bytes.IndexAny(t, "[<"); i >= 0 { // List[T], List<T>
		t = t[:i]
	}
	dot := bytes.IndexByte(t, '.')
	if dot < 0 {
		if !plainIdent(t) {
			return ""
		}
	} else if !plainIdent(t[:dot]) || !plainIdent(t[dot+1:]) {
		return ""
	}
	return string(t)
}

// qualifierType is the type of qualifier q at a reference enclosed by
// definition enc: for self, this and cls the enclosing class (or, for a
// method outside one, as in a Rust impl, its qualified name's prefix);
// else the innermost binding of q, from enc out to the file's level.
func qualifierType(defs []Def, binds map[bindKey]string, q string, enc int) string {
	switch q {
	case "self", "this", "cls":
		for d := enc; d >= 0 && d < len(defs); d = defs[d].Parent {
			switch defs[d].Kind {
			case KindClass, KindStruct, KindInterface, KindTrait, KindEnum:
				return defs[d].Qualified
			}
		}
		if enc >= 0 && enc < len(defs) && defs[enc].Kind == KindMethod {
			if i := strings.LastIndexByte(defs[enc].Qualified, '.'); i > 0 {
				return defs[enc].Qualified[:i]
			}
		}
		return ""
	}
	if binds == nil {
		return ""
	}
	for d := enc; ; d = defs[d].Parent {
		if t, ok := binds[bindKey{d, q}]; ok {
			return t
		}
		if d < 0 || d >= len(defs) || defs[d].Parent >= d {
			return ""
		}
	}
}

// fieldChainType is the type of a qualifier x.f (d.r in d.r.Read()) at a
// reference enclosed by definition enc: x's type's field f's declared type,
// when the struct is declared in this file with f's type bound (Go's
// `r io.Reader` field); "" otherwise.
func fieldChainType(defs []Def, binds map[bindKey]string, q []byte, enc int) string {
	i := bytes.IndexByte(q, '.')
	if i < 0 || !plainIdent(q[:i]) || !plainIdent(q[i+1:]) {
		return ""
	}
	t := qualifierType(defs, binds, string(q[:i]), enc)
	if t == "" || strings.IndexByte(t, '.') >= 0 {
		return "" // unknown, or another package's type: its fields are not here
	}
	field := string(q[i+1:])
	for j := range defs {
		if defs[j].Kind == KindField && defs[j].Name == field && defs[j].Qualified == t+"."+field {
			return binds[bindKey{j, field}]
		}
	}
	return ""
}

// fileDoc returns the package doc (Go), module docstring (Python) or the
// leading comment block (others).
func (p *Parser) fileDoc(s *langSpec, root *sitter.Node, src []byte, pkgStart int64) string {
	switch s.name {
	case "go":
		if pkgStart >= 0 {
			return docAbove(src, p.lines, p.lines.line(uint32(pkgStart)), s)
		}
		return ""
	case "python":
		cnt := min(int(root.NamedChildCount()), 8)
		for i := 0; i < cnt; i++ {
			c := root.NamedChild(i)
			if c == nil {
				break
			}
			t := c.Type()
			if t == "comment" {
				continue
			}
			if t == "expression_statement" && c.NamedChildCount() == 1 {
				if str := c.NamedChild(0); str != nil && str.Type() == "string" {
					st, en := nodeRange(str, len(src))
					return docstring(src[st:en])
				}
			}
			break
		}
	}
	return leadingDoc(src, p.lines, s)
}

// dedupeImports sorts imports by line and drops a repeated path on one line
// (two patterns matching one statement), keeping the aliased one.
func dedupeImports(imps []Import) []Import {
	slices.SortStableFunc(imps, func(a, b Import) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Path, b.Path)
	})
	w := 0
	for i := range imps {
		if w > 0 && imps[w-1].Line == imps[i].Line && imps[w-1].Path == imps[i].Path {
			if imps[w-1].Alias == "" {
				imps[w-1].Alias = imps[i].Alias
			}
			continue
		}
		imps[w] = imps[i]
		w++
	}
	return imps[:w]
}

// transparent reports whether definitions of kind k are skipped when
// looking for the parent of a nested definition.
func transparent(k DefKind) bool {
	return k == KindType || k == KindVar || k == KindConst || k == KindField || k == KindMacro
}
