package parser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// ErrUnsupported is returned by Parse for a file whose language Detect does
// not know.
var ErrUnsupported = errors.New("unsupported language")

// Parser parses files into Facts. It owns one tree-sitter parser, one query
// cursor and scratch buffers that it reuses from file to file, so a build
// creates one Parser per worker goroutine. A Parser is not safe for
// concurrent use; the compiled grammars and queries it uses are shared.
// The zero value is not usable: call NewParser, and Close when done.
type Parser struct {
	ts  *sitter.Parser
	mt  matcher
	cur *langSpec // language the tree-sitter parser is set to

	// Scratch reused across files.
	lines   lineIndex
	defs    []rawDef
	refs    []rawRef
	binds   []rawBind
	docs    []rawDoc
	stack   []int32
	names   []uint32
	heads   []heading
	intern  interner
	defIdx  []int32
	imports []Import
	strs    []rawStr
	impAt   []uint32 // start offsets of import paths (not literals to index)
	bodies  []rawStr // token trees of item-position macro calls (macro.go)

	// cancel is ts's cancellation flag and w the goroutine that raises it
	// when the context of the parses ends (cancel.go).
	cancel *uintptr
	w      *ctxWatch
}

// NewParser returns a Parser ready for any supported language. Close it to
// free its C memory promptly.
func NewParser() *Parser {
	p := &Parser{ts: sitter.NewParser()}
	p.cancel = cancelFlag(p.ts)
	p.mt.init(p)
	return p
}

// Close frees the Parser's C memory. The Parser must not be used afterwards.
// Closing twice is harmless.
func (p *Parser) Close() {
	p.unwatch()
	p.mt.close()
	if p.ts != nil {
		p.ts.Close()
		p.ts = nil
	}
}

// spec returns the loaded language spec for path.
func (p *Parser) spec(path string) (*langSpec, error) {
	lang := Detect(path)
	s := specs[lang]
	if s == nil {
		return nil, fmt.Errorf("parse %s: %w", path, ErrUnsupported)
	}
	if err := s.load(); err != nil {
		return nil, err
	}
	if p.cur != s {
		p.ts.SetLanguage(s.lang)
		p.cur = s
	}
	return s, nil
}

// parseLimitMicros bounds one parse: far above what any real file takes
// (milliseconds), so that only a grammar stuck on broken input hits it.
func parseLimitMicros(n int) int {
	return 2_000_000 + 50*n
}

// ParseOnly runs the tree-sitter parse of src and discards the tree. It does
// no extraction; benchmarks use it as the floor that Parse is measured
// against, so it parses what Parse parses: not a file its language leaves
// unparsed for its size.
func (p *Parser) ParseOnly(ctx context.Context, path string, src []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if lexicalFor(path) != nil {
		return nil // no grammar: nothing to parse
	}
	s, err := p.spec(path)
	if err != nil {
		return err
	}
	if s.maxBytes > 0 && len(src) > s.maxBytes {
		return nil
	}
	if s.prepare != nil {
		src = s.prepare(src)
	}
	tree, _, err := p.parseTree(ctx, s, src)
	if err != nil {
		return fmt.Errorf("parse %s: %w", path, err)
	}
	tree.Close()
	return nil
}

// parseLimitPerByte is added to a langSpec's parseLimit for each byte of
// the file.
const parseLimitPerByte = 100 * time.Microsecond

// parseTree parses src with the language's time limit, if any; it returns
// the limit it used.
func (p *Parser) parseTree(ctx context.Context, s *langSpec, src []byte) (*sitter.Tree, time.Duration, error) {
	limit := time.Duration(parseLimitMicros(len(src))) * time.Microsecond
	if s.parseLimit > 0 {
		limit = s.parseLimit + time.Duration(len(src))*parseLimitPerByte
	}
	p.ts.SetOperationLimit(int(limit.Microseconds()))
	if s.serial != nil {
		s.serial.Lock()
		defer s.serial.Unlock()
	}
	tree, err := p.ts.ParseCtx(p.watch(ctx), nil, src)
	if err != nil {
		// Stopped by the time limit or by ctx: a parse that stopped
		// resumes on the next call unless the parser is reset.
		p.ts.Reset()
		if ctx.Err() != nil {
			p.unwatch()
			return nil, limit, ctx.Err()
		}
	}
	return tree, limit, err
}

// Parse extracts the Facts of the file at path (used only to pick the
// language) with contents src. Syntax errors are not errors: they become
// Facts.Diagnostics and extraction keeps what the parser recovered. Parse
// returns an error only for an unsupported language (ErrUnsupported) or a
// cancelled ctx. Every string in the result is valid UTF-8 and owned by the
// caller; src is not retained. Diagnostic lines and columns are 1-based,
// columns counted in bytes.
func (p *Parser) Parse(ctx context.Context, path string, src []byte) (*Facts, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if h := lexicalFor(path); h != nil {
		return p.parseLexical(ctx, h, src)
	}
	s, err := p.spec(path)
	if err != nil {
		return nil, err
	}
	if s.maxBytes > 0 && len(src) > s.maxBytes {
		return &Facts{Language: s.name}, nil
	}
	if s.prepare != nil {
		src = s.prepare(src)
	}
	tree, limit, err := p.parseTree(ctx, s, src)
	if errors.Is(err, sitter.ErrOperationLimit) && ctx.Err() == nil {
		// A grammar whose error recovery runs away on some broken input
		// (seen with CUE and Swift): the file keeps its file page and says why.
		return &Facts{Language: s.name, Diagnostics: []Diagnostic{{Line: 1, Column: 1, Message: fmt.Sprintf(
			"the %s grammar gave up after %v (error recovery on broken input); nothing indexed: fix the syntax or split the file", s.name, limit.Round(time.Millisecond))}}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	defer tree.Close()
	f := &Facts{Language: s.name}
	p.safeExtract(s, path, tree, src, f)
	return f, nil
}

// safeExtract runs extraction and turns a panic (a bug in this package, not
// in the input) into a diagnostic, so that one odd file cannot stop a build.
func (p *Parser) safeExtract(s *langSpec, path string, tree *sitter.Tree, src []byte, f *Facts) {
	defer func() {
		if r := recover(); r != nil {
			*f = Facts{Language: s.name, Diagnostics: []Diagnostic{{Line: 1, Column: 1,
				Message: validString(fmt.Appendf(nil, "internal error extracting %s facts: %v", s.name, r))}}}
			p.intern = interner{}
		}
	}()
	p.lines = p.lines.build(src)
	switch {
	case s.extract != nil:
		s.extract(p, path, tree, src, f)
	case s.name == "markdown":
		p.extractMarkdown(s, tree, src, f)
	default:
		p.extractCode(s, tree, src, f)
	}
	if s.finish != nil {
		s.finish(path, src, f)
	}
	capLiterals(f)
	p.diagnose(tree.RootNode(), src, f)
}

// diagnose reports ERROR and MISSING nodes, descending only into subtrees
// that contain an error, up to MaxDiagnostics. An ERROR node holding
// errors of its own is reported through them: where a grammar gives up on
// a whole file its root is one ERROR node, and its start (1:1, moby's
// contrib/check-config.sh) told nothing, where the errors inside it say
// where the parse went wrong (71:20, 183:71, 186:82).
func (p *Parser) diagnose(root *sitter.Node, src []byte, f *Facts) {
	if !root.HasError() {
		return
	}
	if end := min(int(root.EndByte()), len(src)); len(bytes.TrimSpace(src[end:])) > 0 {
		// The grammar gave up before the end (tree-sitter-yaml on a quoted
		// scalar continued at its key's indentation: moby's
		// api/docs/v1.25.yaml stops at line 687 of 7,796): what follows is
		// in no node, so nothing of it is indexed. Said first, as it is the
		// diagnostic that matters.
		pt := root.EndPoint()
		last := bytes.Count(src, []byte("\n")) + 1
		if src[len(src)-1] == '\n' {
			last--
		}
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: int(pt.Row) + 1, Column: int(pt.Column) + 1,
			Message: fmt.Sprintf("the %s grammar gave up here: the rest of the file (to line %d) is not indexed", f.Language, last)})
	}
	var walk func(n *sitter.Node, depth int)
	inner := func(n *sitter.Node, depth int) {
		cnt := int(n.ChildCount())
		for i := 0; i < cnt && len(f.Diagnostics) < MaxDiagnostics; i++ {
			c := n.Child(i)
			if c != nil && (c.HasError() || c.IsMissing()) {
				walk(c, depth+1)
			}
		}
	}
	walk = func(n *sitter.Node, depth int) {
		if len(f.Diagnostics) >= MaxDiagnostics {
			return
		}
		if n.IsError() && depth <= 500 {
			had := len(f.Diagnostics)
			inner(n, depth)
			if len(f.Diagnostics) > had {
				return
			}
		}
		if n.IsError() || n.IsMissing() {
			pt := n.StartPoint()
			var msg string
			if n.IsMissing() {
				msg = "missing " + validUTF8(n.Type())
			} else {
				start, end := n.StartByte(), n.EndByte()
				if end > uint32(len(src)) {
					end = uint32(len(src))
				}
				if end-start > 24 {
					end = start + 24
				}
				msg = fmt.Sprintf("syntax error near %q", foldSpace(src[start:end], 24))
			}
			f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: int(pt.Row) + 1, Column: int(pt.Column) + 1, Message: msg})
			return
		}
		// Deeply nested garbage: report the subtree rather than recursing on.
		if depth > 500 {
			pt := n.StartPoint()
			f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: int(pt.Row) + 1, Column: int(pt.Column) + 1, Message: "syntax error"})
			return
		}
		inner(n, depth)
	}
	walk(root, 0)
	if len(f.Diagnostics) == 0 {
		// HasError without a located node: report the file as a whole.
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: 1, Column: 1, Message: "syntax error"})
	}
}
