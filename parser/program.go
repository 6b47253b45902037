package parser

// #include <stdlib.h>
// #include "matches.h"
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// A program is a language's query compiled for the tree walker of
// matches.c (wt_matches_exec). Our queries use a small part of the query
// language: node patterns with fields, nested children, (_) and _
// wildcards, [...] alternations of childless nodes, "anonymous" nodes,
// !negated fields, . anchors and one capture per node. The walker matches
// exactly those, the way tree-sitter's query cursor does (TestProgramAgrees
// compares the two), in one pass of a tree cursor: a query cursor spends
// most of its time keeping its general state machine up to date at every
// node (on moby a single-pattern query costs 80% of the full one). A
// pattern using anything else (quantifiers, predicates, several captures
// on one node, a wildcard or alternation at the root) is left to
// tree-sitter in a residual query.
type program struct {
	p        *C.wt_program // C memory, alive as long as the language
	residual *sitter.Query // patterns the walker does not run, or nil
	// remap maps a residual capture index to the full query's.
	remap []uint32
}

// patNode is a parsed pattern node.
type patNode struct {
	kind      int      // nodeNamed, nodeAnon, nodeAny (_), nodeAnyNamed ((_))
	types     []string // one, or several for an alternation
	field     string
	capture   string
	negated   []string
	children  []*patNode
	immediate bool // a . anchor before it
	last      bool // a . anchor after it
}

// maxPatternDepth is MAX_DEPTH of matches.c.
const maxPatternDepth = 16

func (n *patNode) depth() int {
	d := 0
	for _, c := range n.children {
		d = max(d, c.depth())
	}
	return d + 1
}

const (
	nodeNamed = iota
	nodeAnon
	nodeAny
	nodeAnyNamed
)

var errUnsupported = errors.New("not supported by the tree walker")

// scmPattern is one top-level pattern of a query source: its text, and
// its parse when the walker supports it.
type scmPattern struct {
	text string
	root *patNode
	err  error
}

// splitPatterns splits query source into its top-level patterns and
// parses each.
func splitPatterns(src string) ([]scmPattern, error) {
	var out []scmPattern
	lx := &scmLexer{src: src}
	for {
		lx.skip()
		if lx.pos >= len(src) {
			return out, nil
		}
		start := lx.pos
		root, err := lx.pattern(true)
		if err != nil && !errors.Is(err, errUnsupported) {
			return nil, err
		}
		if err == nil && root.depth() > maxPatternDepth {
			err = errUnsupported
		}
		if err != nil {
			// Resynchronise on the end of the unsupported pattern.
			lx.pos = start
			if err := lx.skipPattern(); err != nil {
				return nil, err
			}
		}
		out = append(out, scmPattern{text: src[start:lx.pos], root: root, err: err})
	}
}

type scmLexer struct {
	src string
	pos int
}

// skip skips white space and ; comments.
func (lx *scmLexer) skip() {
	for lx.pos < len(lx.src) {
		switch c := lx.src[lx.pos]; {
		case c == ';':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			lx.pos++
		default:
			return
		}
	}
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == '/' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (lx *scmLexer) ident() string {
	st := lx.pos
	for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
		lx.pos++
	}
	return lx.src[st:lx.pos]
}

func (lx *scmLexer) str() (string, error) {
	lx.pos++ // opening quote
	var b strings.Builder
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch c {
		case '"':
			lx.pos++
			return b.String(), nil
		case '\\':
			if lx.pos+1 < len(lx.src) {
				lx.pos++
				c = lx.src[lx.pos]
				switch c {
				case 'n':
					c = '\n'
				case 't':
					c = '\t'
				}
			}
		}
		b.WriteByte(c)
		lx.pos++
	}
	return "", fmt.Errorf("query: unterminated string")
}

// skipPattern moves past one top-level pattern of any syntax: balanced
// brackets, then its captures and quantifiers.
func (lx *scmLexer) skipPattern() error {
	depth := 0
	for lx.pos < len(lx.src) {
		lx.skip()
		if lx.pos >= len(lx.src) {
			break
		}
		switch c := lx.src[lx.pos]; c {
		case '(', '[':
			depth++
			lx.pos++
		case ')', ']':
			depth--
			lx.pos++
		case '"':
			if _, err := lx.str(); err != nil {
				return err
			}
		default:
			lx.pos++
		}
		if depth == 0 {
			break
		}
	}
	if depth != 0 {
		return fmt.Errorf("query: unbalanced brackets")
	}
	// Trailing captures and quantifiers belong to the pattern.
	for {
		save := lx.pos
		lx.skip()
		if lx.pos < len(lx.src) && (lx.src[lx.pos] == '@' || strings.IndexByte("*+?", lx.src[lx.pos]) >= 0) {
			lx.pos++
			lx.ident()
			continue
		}
		lx.pos = save
		return nil
	}
}

// pattern parses one node pattern with its captures.
func (lx *scmLexer) pattern(top bool) (*patNode, error) {
	lx.skip()
	if lx.pos >= len(lx.src) {
		return nil, fmt.Errorf("query: unexpected end")
	}
	n := &patNode{}
	switch c := lx.src[lx.pos]; {
	case c == '(':
		lx.pos++
		lx.skip()
		name := lx.ident()
		switch name {
		case "":
			return nil, errUnsupported // (#predicate ...) or a grouping
		case "_":
			n.kind = nodeAnyNamed
		default:
			n.kind, n.types = nodeNamed, []string{name}
		}
		if err := lx.children(n); err != nil {
			return nil, err
		}
	case c == '[':
		if top {
			return nil, errUnsupported
		}
		lx.pos++
		for {
			lx.skip()
			if lx.pos >= len(lx.src) {
				return nil, fmt.Errorf("query: unterminated [")
			}
			if lx.src[lx.pos] == ']' {
				lx.pos++
				break
			}
			alt, err := lx.pattern(false)
			if err != nil {
				return nil, err
			}
			if alt.kind != n.kind && len(n.types) > 0 || alt.kind != nodeNamed && alt.kind != nodeAnon ||
				alt.capture != "" || len(alt.children) > 0 || len(alt.negated) > 0 {
				return nil, errUnsupported
			}
			n.kind = alt.kind
			n.types = append(n.types, alt.types...)
		}
		if len(n.types) == 0 {
			return nil, errUnsupported
		}
	case c == '"':
		s, err := lx.str()
		if err != nil {
			return nil, err
		}
		n.kind, n.types = nodeAnon, []string{s}
	case c == '_':
		lx.pos++
		n.kind = nodeAny
	default:
		return nil, errUnsupported
	}
	// Captures and quantifiers.
	for {
		save := lx.pos
		lx.skip()
		if lx.pos >= len(lx.src) {
			break
		}
		c := lx.src[lx.pos]
		if c == '@' {
			lx.pos++
			if n.capture != "" {
				return nil, errUnsupported
			}
			n.capture = lx.ident()
			continue
		}
		if strings.IndexByte("*+?", c) >= 0 {
			return nil, errUnsupported
		}
		lx.pos = save
		break
	}
	if top && (n.kind == nodeAny || n.kind == nodeAnyNamed || n.kind == nodeAnon) {
		return nil, errUnsupported
	}
	return n, nil
}

// children parses a node pattern's body up to its closing parenthesis.
func (lx *scmLexer) children(n *patNode) error {
	anchor := false
	for {
		lx.skip()
		if lx.pos >= len(lx.src) {
			return fmt.Errorf("query: unterminated (")
		}
		switch c := lx.src[lx.pos]; {
		case c == ')':
			lx.pos++
			if anchor {
				if len(n.children) == 0 {
					return errUnsupported
				}
				n.children[len(n.children)-1].last = true
			}
			return nil
		case c == '.':
			if anchor {
				return errUnsupported
			}
			lx.pos++
			anchor = true
		case c == '!':
			lx.pos++
			n.negated = append(n.negated, lx.ident())
		case c == '#':
			return errUnsupported
		default:
			field := ""
			if isIdentChar(c) && c != '_' || c == '_' && lx.pos+1 < len(lx.src) && isIdentChar(lx.src[lx.pos+1]) {
				save := lx.pos
				id := lx.ident()
				lx.skip()
				if lx.pos < len(lx.src) && lx.src[lx.pos] == ':' {
					lx.pos++
					field = id
				} else {
					lx.pos = save
					return errUnsupported // a bare identifier
				}
			}
			child, err := lx.pattern(false)
			if err != nil {
				return err
			}
			child.field, child.immediate = field, anchor
			anchor = false
			n.children = append(n.children, child)
		}
	}
}

// compileProgram compiles the query source for lang into a program whose
// capture indexes are those of names, the source's capture names in
// tree-sitter's order (captureNames).
func compileProgram(src string, lang *sitter.Language, names []string) (*program, error) {
	pats, err := splitPatterns(src)
	if err != nil {
		return nil, err
	}
	c := newProgCompiler(lang, names)
	var residual strings.Builder
	for _, pt := range pats {
		if pt.err != nil {
			residual.WriteString(pt.text)
			residual.WriteByte('\n')
			continue
		}
		if err := c.addRoot(pt.root); err != nil {
			return nil, err
		}
	}
	if len(c.steps) > 1<<16 || len(c.pool) > 1<<31 {
		return nil, fmt.Errorf("query: too large for the tree walker")
	}
	prog := &program{}
	if residual.Len() > 0 {
		if prog.residual, prog.remap, err = c.residualQuery(residual.String()); err != nil {
			return nil, err
		}
	}
	prog.p = c.toC()
	return prog, nil
}

// captureNames lists the capture names of query source in the order
// tree-sitter numbers them: by first appearance outside strings and
// comments. It saves compiling the whole query with tree-sitter only to
// learn them.
func captureNames(src string) ([]string, error) {
	lx := scmLexer{src: src}
	var names []string
	seen := map[string]bool{}
	for {
		lx.skip()
		if lx.pos >= len(lx.src) {
			return names, nil
		}
		switch lx.src[lx.pos] {
		case '"':
			if _, err := lx.str(); err != nil {
				return nil, err
			}
		case '@':
			lx.pos++
			st := lx.pos
			// Tree-sitter's identifier characters, which differ from
			// isIdentChar.
			for lx.pos < len(lx.src) {
				c := lx.src[lx.pos]
				if c != '_' && c != '-' && c != '.' && c != '?' && c != '!' &&
					(c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
					break
				}
				lx.pos++
			}
			if lx.pos == st {
				return nil, fmt.Errorf("query: @ without a capture name at byte %d", st)
			}
			if name := lx.src[st:lx.pos]; !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		default:
			lx.pos++
		}
	}
}

// progCompiler holds the tables compileProgram looks names up in and the
// program it lays out.
type progCompiler struct {
	lang       *sitter.Language
	nsym       uint32
	captureIdx map[string]uint32      // capture name → index in the full query
	symbols    map[[2]string][]uint16 // {name, "named"|"anon"} → symbols
	fields     map[string]uint16      // field name → field id

	steps []C.wt_step
	pool  []uint16   // symbol lists and negated field lists
	roots [][]uint16 // per symbol: the root steps of the patterns it can start
}

func newProgCompiler(lang *sitter.Language, names []string) *progCompiler {
	c := &progCompiler{lang: lang, nsym: lang.SymbolCount(), captureIdx: map[string]uint32{},
		symbols: map[[2]string][]uint16{}, fields: map[string]uint16{}}
	for i, name := range names {
		c.captureIdx[name] = uint32(i)
	}
	for i := uint32(0); i < c.nsym; i++ {
		s := sitter.Symbol(i)
		switch lang.SymbolType(s) {
		case sitter.SymbolTypeRegular:
			c.symbols[[2]string{lang.SymbolName(s), "named"}] = append(c.symbols[[2]string{lang.SymbolName(s), "named"}], uint16(i))
		case sitter.SymbolTypeAnonymous:
			c.symbols[[2]string{lang.SymbolName(s), "anon"}] = append(c.symbols[[2]string{lang.SymbolName(s), "anon"}], uint16(i))
		}
	}
	for i := 1; i < 1<<16; i++ {
		name := lang.FieldName(i)
		if name == "" {
			break
		}
		c.fields[name] = uint16(i)
	}
	c.roots = make([][]uint16, c.nsym)
	return c
}

// addRoot lays out the pattern rooted at n and lists it under each symbol
// its root matches.
func (c *progCompiler) addRoot(n *patNode) error {
	at := len(c.steps)
	c.steps = append(c.steps, C.wt_step{})
	if err := c.emit(n, at); err != nil {
		return err
	}
	st := &c.steps[at]
	for _, s := range c.pool[st.sym_off : st.sym_off+C.uint32_t(st.sym_count)] {
		c.roots[s] = append(c.roots[s], uint16(at))
	}
	return nil
}

// emit fills steps[at] for n and lays out its children after the steps
// so far.
func (c *progCompiler) emit(n *patNode, at int) error {
	st := &c.steps[at]
	st.capture = 0xffff
	if n.capture != "" {
		idx, ok := c.captureIdx[n.capture]
		if !ok {
			return fmt.Errorf("query: capture @%s unknown", n.capture)
		}
		st.capture = C.uint16_t(idx)
	}
	switch n.kind {
	case nodeAny:
		st.any = 2
	case nodeAnyNamed:
		st.any = 1
	default:
		kind := "named"
		if n.kind == nodeAnon {
			kind = "anon"
		}
		st.sym_off = C.uint32_t(len(c.pool))
		for _, t := range n.types {
			syms := c.symbols[[2]string{t, kind}]
			if len(syms) == 0 {
				return fmt.Errorf("query: invalid node type %q", t)
			}
			c.pool = append(c.pool, syms...)
		}
		st.sym_count = C.uint16_t(len(c.pool) - int(st.sym_off))
	}
	if n.field != "" {
		f, ok := c.fields[n.field]
		if !ok {
			return fmt.Errorf("query: invalid field %q", n.field)
		}
		st.field = C.uint16_t(f)
	}
	if len(n.negated) > 0 {
		st.neg_off = C.uint32_t(len(c.pool))
		for _, name := range n.negated {
			f, ok := c.fields[name]
			if !ok {
				return fmt.Errorf("query: invalid field %q", name)
			}
			c.pool = append(c.pool, f)
		}
		st.neg_count = C.uint16_t(len(n.negated))
	}
	if n.immediate {
		st.flags |= C.WT_IMMEDIATE
	}
	if n.last {
		st.flags |= C.WT_LAST
	}
	if len(n.children) > 0 {
		first := len(c.steps)
		st.child_off, st.child_count = C.uint32_t(first), C.uint16_t(len(n.children))
		// st points into c.steps, which this append may move: it is not
		// used after.
		c.steps = append(c.steps, make([]C.wt_step, len(n.children))...)
		for i, child := range n.children {
			if err := c.emit(child, first+i); err != nil {
				return err
			}
		}
	}
	return nil
}

// residualQuery compiles the patterns the walker does not run with
// tree-sitter, and maps its capture indexes to the full query's.
func (c *progCompiler) residualQuery(src string) (*sitter.Query, []uint32, error) {
	rq, err := sitter.NewQuery([]byte(src), c.lang)
	if err != nil {
		return nil, nil, err
	}
	remap := make([]uint32, rq.CaptureCount())
	for i := range remap {
		idx, ok := c.captureIdx[rq.CaptureNameForId(uint32(i))]
		if !ok {
			return nil, nil, fmt.Errorf("query: capture @%s not found in the source", rq.CaptureNameForId(uint32(i)))
		}
		remap[i] = idx
	}
	return rq, remap, nil
}

// toC copies the program into C memory, which lives as long as the language.
func (c *progCompiler) toC() *C.wt_program {
	rootOff := make([]uint32, c.nsym+1)
	var rootList []uint16
	for s := range c.roots {
		rootOff[s] = uint32(len(rootList))
		rootList = append(rootList, c.roots[s]...)
	}
	rootOff[c.nsym] = uint32(len(rootList))
	p := (*C.wt_program)(C.calloc(1, C.size_t(unsafe.Sizeof(C.wt_program{}))))
	p.steps = (*C.wt_step)(cCopy(c.steps))
	p.pool = (*C.uint16_t)(cCopy(c.pool))
	p.root_off = (*C.uint32_t)(cCopy(rootOff))
	p.roots = (*C.uint16_t)(cCopy(rootList))
	p.symbol_count = C.uint32_t(c.nsym)
	return p
}

// cCopy copies s into C memory (never freed: programs live as long as the
// process's languages).
func cCopy[T any](s []T) unsafe.Pointer {
	size := C.size_t(len(s)) * C.size_t(unsafe.Sizeof(*new(T)))
	if size == 0 {
		size = 1
	}
	p := C.calloc(1, size)
	if p == nil {
		panic("parser: out of memory for a query program")
	}
	if len(s) > 0 {
		copy(unsafe.Slice((*T)(p), len(s)), s)
	}
	return p
}
