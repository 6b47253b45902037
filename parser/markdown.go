package parser

import (
	"bytes"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// heading is one Markdown heading found by the block grammar.
type heading struct {
	start, end uint32
	level      int
	text       string
}

// extractMarkdown turns every ATX and setext heading into a KindSection
// Def and the first paragraph into f.Doc. The tree-sitter block grammar
// finds the headings (so '#' lines inside fenced code are not headings);
// section extents come from the heading levels, not from the grammar's
// section nodes, which do not nest setext headings.
func (p *Parser) extractMarkdown(s *langSpec, tree *sitter.Tree, src []byte, f *Facts) {
	heads := p.heads[:0]
	var paras [][2]uint32
	n := len(src)
	rec := p.mt.collect(tree.RootNode(), s.nodeRoles)
	for {
		caps, rest, ok := nextMatch(rec)
		if !ok {
			break
		}
		rec = rest
		for i := range caps {
			c := &caps[i]
			st, en := c.span(n)
			switch role(c.index) {
			case roleHeading:
				if h, ok := parseHeading(src[st:en]); ok {
					h.start, h.end = st, en
					heads = append(heads, h)
				}
			case roleParagraph:
				if len(paras) < 8 {
					paras = append(paras, [2]uint32{st, en})
				}
			}
		}
	}
	slices.SortFunc(heads, func(a, b heading) int { return int(a.start) - int(b.start) })
	p.heads = heads

	// The file's doc: the first paragraph that is not a setext heading's text.
	slices.SortFunc(paras, func(a, b [2]uint32) int { return int(a[0]) - int(b[0]) })
	for _, pr := range paras {
		inHeading := false
		for _, h := range heads {
			if pr[0] >= h.start && pr[1] <= h.end {
				inHeading = true
				break
			}
		}
		if !inHeading {
			f.Doc = truncate(validString(bytes.TrimSpace(src[pr[0]:pr[1]])), MaxDocBytes)
			break
		}
	}

	p.sectionDefs(heads, src, f, func(h heading) string { return strings.Repeat("#", h.level) + " " + h.text })
}

// sectionDefs turns headings, sorted by start, into KindSection Defs: a
// section runs to the next heading of the same or a higher level (lower
// number), nests in the one before it of a higher level, and its doc is
// its text up to the next heading. sig renders a heading's signature.
// Markdown, reStructuredText and AsciiDoc share it.
func (p *Parser) sectionDefs(heads []heading, src []byte, f *Facts, sig func(heading) string) {
	n := len(src)
	lastLine := p.lines.endLine(0, uint32(n))
	stack := p.stack[:0]
	f.Defs = make([]Def, 0, len(heads))
	for i, h := range heads {
		for len(stack) > 0 && heads[stack[len(stack)-1]].level >= h.level {
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 {
			parent = int(stack[len(stack)-1])
		}
		stack = append(stack, int32(i))
		end := lastLine
		for j := i + 1; j < len(heads); j++ {
			if heads[j].level <= h.level {
				end = p.lines.line(heads[j].start)
				break
			}
		}
		bodyEnd := uint32(n)
		if i+1 < len(heads) {
			bodyEnd = heads[i+1].start
		}
		body := src[min(h.end, bodyEnd):bodyEnd]
		startLine := p.lines.line(h.start) + 1
		f.Defs = append(f.Defs, Def{
			Kind:      KindSection,
			Name:      h.text,
			Qualified: slug(h.text),
			Parent:    parent,
			StartLine: startLine,
			EndLine:   max(end, startLine),
			Signature: truncate(sig(h), MaxSignatureBytes),
			Doc:       truncate(validString(bytes.TrimSpace(body)), MaxDocBytes),
		})
	}
	p.stack = stack
}

// parseHeading reads the level and text of an ATX ("## Title ##") or
// setext ("Title\n=====") heading node's source.
func parseHeading(b []byte) (heading, bool) {
	t := bytes.TrimLeft(b, " \t")
	if len(t) > 0 && t[0] == '#' {
		line := t
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		level := 0
		for level < len(line) && line[level] == '#' {
			level++
		}
		if level > 6 {
			return heading{}, false
		}
		text := bytes.TrimSpace(line[level:])
		// Closing sequence: trailing #s preceded by a space (or alone).
		if k := len(bytes.TrimRight(text, "#")); k < len(text) && (k == 0 || text[k-1] == ' ' || text[k-1] == '\t') {
			text = bytes.TrimSpace(text[:k])
		}
		return heading{level: level, text: foldSpace(text, MaxSignatureBytes)}, true
	}
	// Setext: text lines, then an underline of '=' (level 1) or '-' (2).
	b = bytes.TrimRight(b, " \t\r\n")
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		return heading{}, false
	}
	under := bytes.TrimSpace(b[i+1:])
	level := 2
	if len(under) > 0 && under[0] == '=' {
		level = 1
	}
	return heading{level: level, text: foldSpace(b[:i], MaxSignatureBytes)}, true
}
