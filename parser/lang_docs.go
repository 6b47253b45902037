package parser

import (
	"bytes"
	"regexp"
	"unicode/utf8"
)

// reStructuredText and AsciiDoc need no grammar: their heading rules are
// line rules. Their headings become KindSection defs, as Markdown's do, and
// their first paragraph the file's doc.

func init() {
	for _, h := range []*heurLang{
		{name: "rst", exts: []string{".rst", ".rest"}, sections: (*Parser).rstSections},
		{name: "asciidoc", exts: []string{".adoc", ".asciidoc", ".asc"}, sections: (*Parser).adocSections},
	} {
		heurLangs = append(heurLangs, h)
		heurByName[h.name] = h
		for _, e := range h.exts {
			heurByExt[e] = h
		}
	}
}

// docLine is one line of a markup file: its byte range without the line
// break, and its text trimmed on the right.
type docLine struct {
	start, end int
	text       []byte
}

func (p *Parser) docLines(src []byte) []docLine {
	out := make([]docLine, len(p.lines))
	for l := range p.lines {
		s, e := p.lines.bounds(src, l)
		out[l] = docLine{start: s, end: e, text: bytes.TrimRight(src[s:e], " \t")}
	}
	if n := len(out); n > 0 && out[n-1].start == len(src) {
		out = out[:n-1]
	}
	return out
}

func blankLine(ls []docLine, l int) bool { return l < 0 || l >= len(ls) || len(ls[l].text) == 0 }

// lineEnd is the offset just after line l's line break.
func lineEnd(src []byte, ls []docLine, l int) uint32 {
	return uint32(min(ls[l].end+1, len(src)))
}

// rstAdornment reports the character of an rST adornment line: two or more
// of one punctuation character and nothing else.
func rstAdornment(t []byte) (byte, bool) {
	if len(t) < 2 || !bytes.ContainsRune([]byte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), rune(t[0])) {
		return 0, false
	}
	for _, c := range t {
		if c != t[0] {
			return 0, false
		}
	}
	return t[0], true
}

// rstTitle reports whether line l can be a section title: unindented text
// that starts a block (first line, or after a blank line or an overline),
// not an adornment, comment or directive.
func rstTitle(ls []docLine, l int) bool {
	t := ls[l].text
	if len(t) == 0 || t[0] == ' ' || t[0] == '\t' || bytes.HasPrefix(t, []byte("..")) {
		return false
	}
	_, adorn := rstAdornment(t)
	return !adorn
}

// rstSections finds reStructuredText section titles: a title line
// underlined, and optionally overlined with the same character, by a line
// of one repeated punctuation character at least as long as the title (or
// four long). Levels follow the order in which the adornment styles first
// appear, as docutils assigns them. A line of "----" between blank lines
// is a transition, and "=====  =====" a table border, not an underline.
func (p *Parser) rstSections(src []byte, f *Facts) {
	ls := p.docLines(src)
	type style struct {
		c    byte
		over bool
	}
	var styles []style
	level := func(s style) int {
		for i, x := range styles {
			if x == s {
				return i + 1
			}
		}
		styles = append(styles, s)
		return len(styles)
	}
	heads := p.heads[:0]
	inHead := make([]bool, len(ls))
	long := func(u, t []byte) bool {
		return utf8.RuneCount(u) >= utf8.RuneCount(bytes.TrimSpace(t)) || len(u) >= 4
	}
	for l := 0; l+1 < len(ls); l++ {
		if c, ok := rstAdornment(ls[l].text); ok && l+2 < len(ls) && blankLine(ls, l-1) {
			// Overline, title (may be inset), underline.
			title := bytes.TrimSpace(ls[l+1].text)
			if u, ok := rstAdornment(ls[l+2].text); ok && u == c && len(title) > 0 && len(ls[l+2].text) == len(ls[l].text) && long(ls[l].text, title) {
				heads = append(heads, heading{start: uint32(ls[l].start), end: lineEnd(src, ls, l+2),
					level: level(style{c, true}), text: foldSpace(title, MaxSignatureBytes)})
				inHead[l], inHead[l+1], inHead[l+2] = true, true, true
				l += 2
				continue
			}
		}
		if !rstTitle(ls, l) || !blankLine(ls, l-1) {
			continue
		}
		if c, ok := rstAdornment(ls[l+1].text); ok && long(ls[l+1].text, ls[l].text) {
			heads = append(heads, heading{start: uint32(ls[l].start), end: lineEnd(src, ls, l+1),
				level: level(style{c, false}), text: foldSpace(ls[l].text, MaxSignatureBytes)})
			inHead[l], inHead[l+1] = true, true
			l++
		}
	}
	p.heads = heads
	f.Doc = firstParagraph(src, ls, inHead, func(t []byte) bool {
		_, adorn := rstAdornment(t)
		return adorn || bytes.HasPrefix(t, []byte("..")) || t[0] == ':'
	})
	p.sectionDefs(heads, src, f, func(h heading) string { return h.text })
}

var (
	adocATX       = regexp.MustCompile(`^(={1,6}|#{1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?$`)
	adocDelimiter = regexp.MustCompile(`^(?:-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|\|===+|` + "`{3,}" + `)$`)
	adocLevels    = map[byte]int{'=': 1, '-': 2, '~': 3, '^': 4, '+': 5}
)

// adocSections finds AsciiDoc section titles: "= Title" … "====== Title"
// (or Markdown's "#"), and two-line titles underlined with '=', '-', '~',
// '^' or '+' within two characters of the title's length. Nothing inside a
// delimited block (----, ...., ====, ****, ____, ++++, ////, |===) is a
// title, so a listing block's closing "----" under a line of code is not
// an underline.
func (p *Parser) adocSections(src []byte, f *Facts) {
	ls := p.docLines(src)
	heads := p.heads[:0]
	inHead := make([]bool, len(ls))
	var open []byte // the delimiter of the block we are in
	for l := 0; l < len(ls); l++ {
		t := ls[l].text
		if open != nil {
			inHead[l] = true // not a paragraph either
			if bytes.Equal(t, open) {
				open = nil
			}
			continue
		}
		if len(t) == 0 || bytes.HasPrefix(t, []byte("//")) && !adocDelimiter.Match(t) {
			continue
		}
		if m := adocATX.FindSubmatch(t); m != nil && blankLine(ls, l-1) {
			heads = append(heads, heading{start: uint32(ls[l].start), end: lineEnd(src, ls, l),
				level: len(m[1]), text: foldSpace(m[2], MaxSignatureBytes)})
			inHead[l] = true
			continue
		}
		if l+1 < len(ls) && adocTitleLine(t) && blankLine(ls, l-1) {
			u := ls[l+1].text
			if lv, ok := adocLevels[firstByte(u)]; ok && len(u) >= 2 && bytes.Count(u, u[:1]) == len(u) {
				if d := utf8.RuneCount(u) - utf8.RuneCount(t); d >= -2 && d <= 2 {
					heads = append(heads, heading{start: uint32(ls[l].start), end: lineEnd(src, ls, l+1),
						level: lv, text: foldSpace(t, MaxSignatureBytes)})
					inHead[l], inHead[l+1] = true, true
					l++
					continue
				}
			}
		}
		if adocDelimiter.Match(t) {
			open = t
			inHead[l] = true
		}
	}
	p.heads = heads
	f.Doc = firstParagraph(src, ls, inHead, func(t []byte) bool {
		return t[0] == '[' || t[0] == ':' || bytes.HasPrefix(t, []byte("//")) || t[0] == '.' && len(t) > 1 && t[1] != '.'
	})
	p.sectionDefs(heads, src, f, func(h heading) string {
		return string(bytes.Repeat([]byte("="), h.level)) + " " + h.text
	})
}

func firstByte(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// adocTitleLine reports whether t can be the text line of a two-line
// title: not a block attribute, block title, attribute entry, list item
// or delimiter.
func adocTitleLine(t []byte) bool {
	if len(t) == 0 || t[0] == ' ' || t[0] == '\t' {
		return false
	}
	switch t[0] {
	case '[', '.', ':', '*', '-', '=', '/', '+', '|', '<':
		return false
	}
	return !adocDelimiter.Match(t)
}

// firstParagraph returns the first block of non-blank lines outside
// headings whose first line skip does not reject, folded to MaxDocBytes.
func firstParagraph(src []byte, ls []docLine, inHead []bool, skip func([]byte) bool) string {
	for l := 0; l < len(ls); l++ {
		if blankLine(ls, l) || inHead[l] {
			continue
		}
		if skip(ls[l].text) {
			for l+1 < len(ls) && !blankLine(ls, l+1) && !inHead[l+1] {
				l++
			}
			continue
		}
		e := l
		for e+1 < len(ls) && !blankLine(ls, e+1) && !inHead[e+1] {
			e++
		}
		return truncate(validString(bytes.TrimSpace(src[ls[l].start:ls[e].end])), MaxDocBytes)
	}
	return ""
}
