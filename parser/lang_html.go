package parser

import (
	"bytes"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/html"
)

// HTML and templates: elements with an id (named by it), h1–h3 headings
// with plain text as sections, and template blocks found on the text —
// Jinja/Django {% block %} and {% macro %}, Go {{define}} and {{block}}.
// The comment above (<!-- -->, {# #}, {{/* */}}) is the doc. Jinja
// extends/include/import/from name the templates they use (imports); a Go
// {{template "name"}} is a reference to that block.
func init() {
	register(&langSpec{name: "html", grammar: html.GetLanguage, extract: extractHTML},
		[]string{".html", ".htm", ".xhtml", ".jinja", ".jinja2", ".j2", ".tmpl", ".gohtml", ".tpl"})
}

// markupDef is a definition of a markup file before nesting.
type markupDef struct {
	start, end uint32
	def        Def
}

func extractHTML(p *Parser, _ string, tree *sitter.Tree, src []byte, f *Facts) {
	var defs []markupDef
	walkMarkup(tree.RootNode(), src, func(n *sitter.Node, tag string, start *sitter.Node) {
		defs = append(defs, p.markupDefs(n, tag, start, src)...)
	})
	blocks, refs, imps := scanTemplate(src)
	for _, b := range blocks {
		b.def.StartLine = p.lines.line(b.start) + 1
		b.def.EndLine = p.lines.endLine(b.start, b.end)
		b.def.Doc = markupDocAbove(src, p.lines, b.def.StartLine-1)
		defs = append(defs, b)
	}
	nestMarkup(defs, f)
	for _, r := range refs {
		f.Refs = append(f.Refs, Ref{Name: r.name, Kind: RefCall, Line: int32(p.lines.line(r.at) + 1), Enclosing: int32(enclosingMarkup(defs, r.at))})
	}
	for _, im := range imps {
		f.Imports = append(f.Imports, Import{Path: im.name, Line: p.lines.line(im.at) + 1})
	}
	f.Doc = markupDocAbove(src, p.lines, firstContentLine(src))
	capDefs(f, maxDataDefs)
}

// walkMarkup calls fn for every element of an HTML or Svelte tree, with
// its tag name and its start (or self-closing) tag.
func walkMarkup(root *sitter.Node, src []byte, fn func(n *sitter.Node, tag string, start *sitter.Node)) {
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > 256 {
			return
		}
		cnt := int(n.NamedChildCount())
		for i := 0; i < cnt; i++ {
			c := n.NamedChild(i)
			if c == nil {
				continue
			}
			switch c.Type() {
			case "element", "script_element", "style_element":
				if st := c.NamedChild(0); st != nil && (st.Type() == "start_tag" || st.Type() == "self_closing_tag") {
					tag := ""
					if tn := st.NamedChild(0); tn != nil && tn.Type() == "tag_name" {
						tag = nodeText(tn, src)
					}
					fn(c, tag, st)
				}
			case "start_tag", "end_tag", "self_closing_tag", "text", "raw_text", "comment", "doctype":
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(root, 0)
}

func nodeText(n *sitter.Node, src []byte) string {
	st, en := nodeRange(n, len(src))
	return validString(src[st:en])
}

// attr returns the value of the start tag's attribute name, and whether it
// is there.
func attr(start *sitter.Node, src []byte, name string) (string, bool) {
	cnt := int(start.NamedChildCount())
	for i := 0; i < cnt; i++ {
		a := start.NamedChild(i)
		if a == nil || a.Type() != "attribute" {
			continue
		}
		an := a.NamedChild(0)
		if an == nil || !strings.EqualFold(nodeText(an, src), name) {
			continue
		}
		v := a.NamedChild(1)
		if v == nil {
			return "", true
		}
		if v.Type() == "quoted_attribute_value" {
			if inner := v.NamedChild(0); inner != nil {
				return nodeText(inner, src), true
			}
			return "", true
		}
		return nodeText(v, src), true
	}
	return "", false
}

// markupDefs returns the definitions an element makes: an element with a
// plain id, a heading h1–h3 with plain text.
func (p *Parser) markupDefs(n *sitter.Node, tag string, start *sitter.Node, src []byte) []markupDef {
	st, en := nodeRange(n, len(src))
	line := p.lines.line(st)
	var out []markupDef
	if id, ok := attr(start, src, "id"); ok && id != "" && !strings.ContainsAny(id, "{}$<>% ") {
		ss, se := nodeRange(start, len(src))
		out = append(out, markupDef{st, en, Def{Kind: KindElement, Name: id, Qualified: id,
			StartLine: line + 1, EndLine: p.lines.endLine(st, en),
			Signature: foldSpace(src[ss:se], MaxSignatureBytes), Doc: markupDocAbove(src, p.lines, line)}})
	}
	if t := strings.ToLower(tag); t == "h1" || t == "h2" || t == "h3" {
		_, se := nodeRange(start, len(src))
		inner := src[se:en]
		if i := bytes.LastIndex(inner, []byte("</")); i >= 0 {
			inner = inner[:i]
		}
		text := foldSpace(dropTags(inner, true), MaxSignatureBytes)
		if text != "" && !strings.Contains(text, "{{") && !strings.Contains(text, "{%") && strings.IndexFunc(text, isLetter) >= 0 {
			out = append(out, markupDef{st, en, Def{Kind: KindSection, Name: text, Qualified: slug(text),
				StartLine: line + 1, EndLine: p.lines.endLine(st, en), Signature: t + " " + text}})
		}
	}
	return out
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 }

// nestMarkup sorts defs by position, sets each one's parent to the
// innermost definition around it and appends them to f.Defs.
func nestMarkup(defs []markupDef, f *Facts) {
	slices.SortStableFunc(defs, func(a, b markupDef) int {
		if a.start != b.start {
			return int(a.start) - int(b.start)
		}
		return int(b.end) - int(a.end)
	})
	base := len(f.Defs)
	var stack []int
	for i := range defs {
		for len(stack) > 0 && defs[stack[len(stack)-1]].end <= defs[i].start {
			stack = stack[:len(stack)-1]
		}
		d := defs[i].def
		d.Parent = -1
		if len(stack) > 0 {
			d.Parent = base + stack[len(stack)-1]
		}
		stack = append(stack, i)
		f.Defs = append(f.Defs, d)
	}
}

// enclosingMarkup returns the index of the innermost def (sorted by
// nestMarkup) around offset at, or -1.
func enclosingMarkup(defs []markupDef, at uint32) int {
	best := -1
	for i := range defs {
		if defs[i].start > at {
			break
		}
		if at < defs[i].end {
			best = i
		}
	}
	return best
}

// firstContentLine is the 0-based line of the first line that is not blank
// and not a comment ending there... used to find the file's leading
// comment: the doc above the first content line.
func firstContentLine(src []byte) int {
	line := 0
	rest := src
	for len(rest) > 0 {
		t := bytes.TrimLeft(rest, " \t\r")
		if len(t) > 0 && t[0] == '\n' {
			rest = t[1:]
			line++
			continue
		}
		if c, ok := commentAt(t); ok {
			line += bytes.Count(t[:c], []byte("\n"))
			rest = t[c:]
			continue
		}
		break
	}
	return line
}

// commentAt reports the length of the markup or template comment at the
// start of t.
func commentAt(t []byte) (int, bool) {
	for _, m := range markupComments {
		if bytes.HasPrefix(t, []byte(m[0])) {
			if i := bytes.Index(t, []byte(m[1])); i >= 0 {
				return i + len(m[1]), true
			}
		}
	}
	return 0, false
}

// markupComments are the comment delimiters of HTML, Jinja and Go templates.
var markupComments = [][2]string{{"<!--", "-->"}, {"{#", "#}"}, {"{{/*", "*/}}"}, {"{{- /*", "*/ -}}"}, {"{{/*", "*/ -}}"}, {"{{- /*", "*/}}"}}

// markupDocAbove returns the text of the comment that ends on the line
// above 0-based line n, without its delimiters.
func markupDocAbove(src []byte, li lineIndex, n int) string {
	if n <= 0 || n >= len(li) {
		return ""
	}
	s, e := li.bounds(src, n-1)
	t := trimLine(src[s:e])
	for _, m := range markupComments {
		if !bytes.HasSuffix(t, []byte(m[1])) {
			continue
		}
		end := s + bytes.LastIndex(src[s:e], []byte(m[1]))
		from := max(0, end-16*MaxDocBytes)
		open := bytes.LastIndex(src[from:end], []byte(m[0]))
		if open < 0 {
			continue
		}
		open += from
		// The comment must start a line.
		ls, _ := li.bounds(src, li.line(uint32(open)))
		if len(trimLine(src[ls:open])) != 0 {
			return ""
		}
		body := bytes.TrimPrefix(bytes.TrimSpace(src[open+len(m[0]):end]), []byte("@component"))
		return finishDoc(bytes.Split(bytes.TrimSpace(body), []byte("\n")))
	}
	return ""
}
