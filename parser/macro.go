package parser

import (
	"context"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// Items inside macro calls. Large Rust crates declare their central types
// inside feature-gate and helper macros (cfg_net! { pub struct TcpStream
// ... }, pin_project! { pub struct Sleep ... }), which the grammar leaves
// as token trees. A query capture @macro.items marks such a token tree at
// item position; macroItems parses its body again, as the same language,
// restricted to the body's byte range (tree-sitter's included ranges), so
// every node keeps its offset in the original file: lines, doc comments
// above, nesting in an impl around the call and enclosing definitions of
// references all come out as if the items were written outside the macro.

// Bounds on the second parses: nested calls (cfg_rt! { cfg_net! { ... } })
// are followed maxMacroDepth deep, and a body larger than maxMacroBytes is
// left alone.
const (
	maxMacroDepth = 4
	maxMacroBytes = 1 << 20
)

// wholeInput is tree-sitter's default included range: all of the input.
var wholeInput = []sitter.Range{{StartByte: 0, EndByte: ^uint32(0),
	EndPoint: sitter.Point{Row: ^uint32(0), Column: ^uint32(0)}}}

// macroItems parses the bodies collected in p.bodies as items and adds
// their matches to p's raw definitions, references, imports and literals.
// A body that does not parse cleanly as items (a match-like DSL such as
// select! or a cfg_if! chain) is left alone.
func (p *Parser) macroItems(s *langSpec, src []byte) {
	if len(p.bodies) == 0 {
		return
	}
	defer p.ts.SetIncludedRanges(wholeInput)
	var todo []rawStr
	for depth := 0; depth < maxMacroDepth && len(p.bodies) > 0; depth++ {
		todo = append(todo[:0], p.bodies...)
		p.bodies = p.bodies[:0]
		for _, b := range todo {
			// Inside the delimiters: { ... }, ( ... ) or [ ... ].
			st, en := b.start+1, b.end-1
			if en <= st || en-st > maxMacroBytes || int(en) > len(src) {
				continue
			}
			p.ts.SetIncludedRanges([]sitter.Range{{StartByte: st, EndByte: en,
				StartPoint: p.point(st), EndPoint: p.point(en)}})
			tree, err := p.ts.ParseCtx(context.Background(), nil, src)
			if err != nil || tree == nil {
				p.ts.Reset() // a parse that hit the time limit would resume
				continue
			}
			root := tree.RootNode()
			if itemsOnly(root) {
				p.takeMatches(s, src, p.mt.exec(s.prog, root), nil, -1)
				if s.prog.residual != nil {
					p.takeMatches(s, src, p.mt.run(s.prog.residual, root), s.prog.remap, -1)
				}
			}
			tree.Close()
		}
	}
	p.bodies = p.bodies[:0]
}

// itemsOnly reports whether a fragment's tree is a clean list of items:
// no syntax error, at least one definition, no statement or expression.
func itemsOnly(root *sitter.Node) bool {
	if root.HasError() {
		return false
	}
	n := int(root.NamedChildCount())
	items := 0
	for i := 0; i < n; i++ {
		c := root.NamedChild(i)
		if c == nil {
			return false
		}
		switch t := c.Type(); t {
		case "line_comment", "block_comment", "attribute_item", "inner_attribute_item", "macro_invocation", "empty_statement":
		case "expression_statement", "let_declaration":
			return false
		default:
			if !slices.Contains(itemTypes, t) {
				return false
			}
			items++
		}
	}
	return items > 0
}

// itemTypes are the Rust grammar's item nodes.
var itemTypes = []string{"function_item", "function_signature_item", "struct_item", "union_item", "enum_item",
	"trait_item", "impl_item", "type_item", "mod_item", "const_item", "static_item", "macro_definition",
	"use_declaration", "extern_crate_declaration", "foreign_mod_item", "associated_type"}

// point returns the row and byte column of offset off.
func (p *Parser) point(off uint32) sitter.Point {
	row := p.lines.line(off)
	return sitter.Point{Row: uint32(row), Column: off - p.lines[row]}
}
