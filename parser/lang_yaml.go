package parser

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/yaml"
)

// YAML and JSON: keys to depth 2 (qualified by their parent key:
// server.port), comments above a key as its doc, string values as literals.
// JSON is parsed with the YAML grammar (JSON is YAML's flow style), only up
// to maxJSONBytes, and lock files not at all. In a GitHub workflow the
// second-level keys under jobs: are jobs.
func init() {
	register(&langSpec{name: "yaml", grammar: yaml.GetLanguage, queries: []string{"yaml.scm"},
		comments: commentHash, sig: sigWholeLine, extract: extractYAML, finish: finishYAML, prepare: indentQuoted}, []string{".yml", ".yaml"})
	register(&langSpec{name: "json", grammar: yaml.GetLanguage, queries: []string{"yaml.scm"},
		sig: sigWholeLine, extract: extractYAML, finish: finishData, maxBytes: maxJSONBytes}, []string{".json"})
	// Lock files are generated: not configuration anyone reads.
	for _, b := range []string{"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml"} {
		langByBase[b] = ""
	}
}

// finishYAML marks a workflow's jobs and caps the definitions.
func finishYAML(path string, src []byte, f *Facts) {
	if isWorkflow(path) {
		for i := range f.Defs {
			d := &f.Defs[i]
			if d.Parent >= 0 && f.Defs[d.Parent].Parent < 0 && f.Defs[d.Parent].Qualified == "jobs" {
				d.Kind = KindJob
			}
		}
	}
	finishData(path, src, f)
}

// extractYAML runs the query; when the file does not parse, the grammar's
// root is an ERROR node holding the pairs it recovered (no document the
// query could anchor on), and their keys to depth 2 are taken from it.
func extractYAML(p *Parser, _ string, tree *sitter.Tree, src []byte, f *Facts) {
	s := specs[f.Language]
	p.extractCode(s, tree, src, f)
	root := tree.RootNode()
	if len(f.Defs) > 0 || root.Type() != "ERROR" {
		return
	}
	var add func(n *sitter.Node, parent int, depth int)
	add = func(n *sitter.Node, parent int, depth int) {
		cnt := int(n.NamedChildCount())
		for i := 0; i < cnt && len(f.Defs) < maxDataDefs; i++ {
			c := n.NamedChild(i)
			if c == nil || c.Type() != "block_mapping_pair" {
				continue
			}
			k := c.ChildByFieldName("key")
			if k == nil {
				continue
			}
			st, en := nodeRange(c, len(src))
			_, name := splitName(nodeText(k, src))
			qual := name
			if parent >= 0 {
				qual = joinDot(f.Defs[parent].Qualified, name)
			}
			line := p.lines.line(st)
			f.Defs = append(f.Defs, Def{Kind: KindKey, Name: name, Qualified: qual, Parent: parent,
				StartLine: line + 1, EndLine: p.lines.endLine(st, en),
				Signature: foldSpace(src[st:signatureEnd(src, int(st), int(en), sigWholeLine, false)], MaxSignatureBytes),
				Doc:       docAbove(src, p.lines, line, s)})
			if v := c.ChildByFieldName("value"); v != nil && depth == 0 && v.Type() == "block_node" {
				if m := v.NamedChild(0); m != nil && m.Type() == "block_mapping" {
					add(m, len(f.Defs)-1, 1)
				}
			}
		}
	}
	add(root, -1, 0)
}

// indentQuoted makes a YAML file that libyaml and Go's yaml read, but
// tree-sitter-yaml stops reading, one it reads to the end. tree-sitter-yaml
// wants every line of a quoted scalar or a flow collection ({...}, [...])
// indented deeper than the node it belongs to (its key, or the "- " of a
// sequence entry), where the others accept a line at that node's column;
// at the first such line it ends the document, and the rest of the file is
// in no node. moby's api/swagger.yaml, written so by its generator,
// indexed 1,375 of its 14,044 lines, and each of its 40 older versions
// under api/docs 700-1,400. As a langSpec.prepare, the rewrite keeps the
// length and the line breaks:
//   - such a line of a quoted scalar is indented one column deeper, the
//     column taken from inside the line: a space after punctuation or one
//     of two, else the first space (two words merge), else the last byte
//     before a closing quote; a line with none of them is left as it is;
//   - a flow collection closed by such a line ("]" after "a,") takes its
//     bracket in place of the trailing comma; one with another such line
//     (an example's data, mostly) is blanked, its line breaks kept: the
//     key stays, without its value.
//
// Block scalars' lines (after "|" or ">") are text, and comments are
// skipped; a tab in an indentation leaves the line as it is.
func indentQuoted(src []byte) []byte {
	if !bytes.ContainsAny(src, "\"'{[") {
		return src
	}
	y := yamlFix{out: bytes.Clone(src), block: -1, comma: -1}
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		y.line(start, end)
		start = end + 1
	}
	if !y.changed {
		return src
	}
	return y.out
}

// yamlFix is indentQuoted's state between lines.
type yamlFix struct {
	out     []byte
	changed bool
	col     int  // the column of the node an open scalar or flow collection belongs to
	quote   byte // the open quoted scalar's quote (in a flow collection too), 0: none
	depth   int  // open flow collections' brackets, 0: none
	flow    int  // where the outer open flow collection starts
	shallow bool // a line of the open flow collection is not deeper than col
	comma   int  // the outer open flow collection's last comma, when nothing but blanks follows it; -1: none
	block   int  // the column of the node of the block scalar being read, -1: none
}

func (y *yamlFix) line(start, end int) {
	line := y.out[start:end]
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	blank := i == len(line) || line[i] == '\r' || line[i] == '#' && y.quote == 0
	shallow := !blank && i <= y.col && line[i] != '\t'
	switch {
	case y.block >= 0 && (blank || i > y.block):
		return // a line of a block scalar's text
	case y.depth > 0:
		if shallow && !y.shallow && y.depth == 1 && y.comma >= 0 && (line[i] == ']' || line[i] == '}') && blankAfter(line, i+1) {
			// "a,\n]": the bracket takes the trailing comma's place.
			y.out[y.comma], line[i] = line[i], ' '
			y.changed = true
			y.depth, y.comma = 0, -1
			return
		}
		y.shallow = y.shallow || shallow
	case y.quote != 0:
		if shallow && shiftRight(line, i, y.col+1-i) {
			y.changed = true
			i = y.col + 1
		}
	default:
		y.block = -1
		if blank {
			return
		}
		y.col = i
		for i+1 < len(line) && line[i] == '-' && line[i+1] == ' ' {
			y.col = i
			for i += 2; i < len(line) && line[i] == ' '; i++ {
			}
		}
		if i < len(line) && line[i] != '"' && line[i] != '\'' && line[i] != '{' && line[i] != '[' {
			y.col = i
		}
	}
	last := -1 // the last byte that is not blank or a comment
	for ; i < len(line); i++ {
		c := line[i]
		if y.quote != 0 {
			switch {
			case y.quote == '"' && c == '\\':
				i++
			case c == y.quote && y.quote == '\'' && i+1 < len(line) && line[i+1] == '\'':
				i++
			case c == y.quote:
				y.quote = 0
			}
			last = i
			continue
		}
		if c != ' ' && c != '\r' && c != '#' {
			y.comma = -1
		}
		switch c {
		case ' ', '\r':
			continue
		case '#':
			if i == 0 || line[i-1] == ' ' {
				i = len(line)
				continue
			}
			y.comma = -1
		case ',':
			if y.depth == 1 {
				y.comma = start + i
			}
		case '"', '\'', '{', '[':
			if y.depth > 0 && flowStart(line, i) || y.depth == 0 && nodeStart(line, i) {
				if c == '"' || c == '\'' {
					y.quote = c
				} else {
					if y.depth == 0 {
						y.flow, y.shallow = start+i, false
					}
					y.depth++
				}
			}
		case '}', ']':
			if y.depth > 0 {
				if y.depth--; y.depth == 0 && y.shallow {
					for k := y.flow; k <= start+i; k++ {
						if y.out[k] != '\n' {
							y.out[k] = ' '
						}
					}
					y.changed = true
				}
			}
		}
		last = i
	}
	if y.quote == 0 && y.depth == 0 && last >= 0 && blockIndicator(line, last) {
		y.block = y.col
	}
}

// blankAfter says whether line holds only blanks or a comment from i.
func blankAfter(line []byte, i int) bool {
	for ; i < len(line); i++ {
		switch line[i] {
		case ' ', '\r':
		case '#':
			return line[i-1] == ' '
		default:
			return false
		}
	}
	return true
}

// nodeStart says whether line[i] starts a node: the line's first, or one
// after ": ", "- " or "? ".
func nodeStart(line []byte, i int) bool {
	k := i - 1
	for k >= 0 && line[k] == ' ' {
		k--
	}
	return k < 0 || k < i-1 && (line[k] == ':' || line[k] == '-' || line[k] == '?')
}

// flowStart says whether line[i] starts a node in a flow collection: the
// line's first, or one after "[", "{", "," or ":" (an apostrophe inside a
// plain scalar, "[it's]", does not open a quoted one).
func flowStart(line []byte, i int) bool {
	k := i - 1
	for k >= 0 && line[k] == ' ' {
		k--
	}
	return k < 0 || line[k] == '[' || line[k] == '{' || line[k] == ',' || line[k] == ':'
}

// blockIndicator says whether line ends, at last, in a block scalar's
// header ("|", ">", "|-", ">+", "|2") after ": " or "- ".
func blockIndicator(line []byte, last int) bool {
	k := last
	for k > 0 && (line[k] == '-' || line[k] == '+' || line[k] >= '1' && line[k] <= '9') {
		k--
	}
	return (line[k] == '|' || line[k] == '>') && nodeStart(line, k)
}

// shiftRight moves the text of line, which starts at column i, n columns
// right, dropping n bytes inside it (see indentQuoted); false when it
// cannot.
func shiftRight(line []byte, i, n int) bool {
	for ; n > 0; n-- {
		drop := -1
		for k := i + 1; k < len(line) && drop < 0; k++ {
			if line[k] == ' ' && (line[k-1] == ' ' || bytes.IndexByte([]byte(",.;:!?)"), line[k-1]) >= 0) {
				drop = k
			}
		}
		if drop < 0 {
			drop = bytes.IndexByte(line[i+1:], ' ')
			if drop >= 0 {
				drop += i + 1
			}
		}
		if drop < 0 {
			// A single word: its last byte before the closing quote.
			last := len(line) - 1
			for last > i && (line[last] == '\r' || line[last] == ' ') {
				last--
			}
			if last > i && (line[last] == '"' || line[last] == '\'') {
				last--
			}
			if last <= i {
				return false
			}
			drop = last
		}
		copy(line[i+1:drop+1], line[i:drop])
		line[i] = ' '
		i++
	}
	return true
}
