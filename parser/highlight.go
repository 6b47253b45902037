package parser

import (
	"context"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// SpanClass is what a highlighted span of source is.
type SpanClass uint8

// Span classes.
const (
	SpanComment SpanClass = iota + 1
	SpanString
	SpanNumber
	SpanKeyword
)

// Span is a highlighted byte range [Start, End) of a source.
type Span struct {
	Start, End int
	Class      SpanClass
}

// Highlight returns the comments, strings, numbers and keywords of src (a
// file at path, which picks the language), in order and not overlapping,
// read off the language's tree-sitter syntax tree: a node whose type names
// a comment, a string or a number, and the grammar's anonymous word tokens
// (keywords: func, return, if). It returns nil for a language without a
// grammar. Broken syntax still highlights what the parser recovered.
func (p *Parser) Highlight(ctx context.Context, path string, src []byte) []Span {
	if lexicalFor(path) != nil {
		return nil
	}
	s, err := p.spec(path)
	if err != nil {
		return nil // no grammar
	}
	parsed := src
	if s.prepare != nil {
		// The rewrite keeps offsets: its tree's spans are src's.
		parsed = s.prepare(src)
	}
	tree, _, err := p.parseTree(ctx, s, parsed)
	if err != nil || tree == nil {
		return nil
	}
	defer tree.Close()
	var out []Span
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		t := n.Type()
		if c := spanClass(t, n.IsNamed(), n.ChildCount() == 0); c != 0 {
			st, en := int(n.StartByte()), int(n.EndByte())
			if en > st && en <= len(src) && (len(out) == 0 || st >= out[len(out)-1].End) {
				out = append(out, Span{st, en, c})
			}
			return // a string's or comment's parts are its own
		}
		for i := range int(n.ChildCount()) {
			walk(n.Child(i))
		}
	}
	walk(tree.RootNode())
	return out
}

// spanClass classifies a syntax node by its type: 0 for one to descend into.
func spanClass(t string, named, leaf bool) SpanClass {
	lt := strings.ToLower(t)
	switch {
	case strings.Contains(lt, "comment"):
		return SpanComment
	case named && (strings.Contains(lt, "string") || strings.Contains(lt, "char_literal") || lt == "character" ||
		strings.Contains(lt, "heredoc") || lt == "rune_literal" || lt == "raw_string_literal"):
		if strings.Contains(lt, "content") || strings.Contains(lt, "fragment") {
			return 0 // part of a string: the string node itself is highlighted
		}
		return SpanString
	case named && leaf && (strings.Contains(lt, "number") || strings.Contains(lt, "integer") || strings.Contains(lt, "float") ||
		lt == "int_literal" || lt == "imaginary_literal"):
		return SpanNumber
	case named && leaf && (lt == "true" || lt == "false" || lt == "nil" || lt == "null" || lt == "none" || lt == "iota"):
		return SpanKeyword
	case !named && leaf && len(t) > 1 && isWord(t):
		return SpanKeyword
	}
	return 0
}

// isWord reports a keyword-like token: letters and underscores only.
func isWord(s string) bool {
	for _, r := range s {
		if r != '_' && !('a' <= r && r <= 'z') && !('A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}
