package parser

import (
	"bytes"
	"strings"
)

// tmplName is a name a template uses at an offset: a {{template "x"}}
// call, or an extended, included or imported template's path.
type tmplName struct {
	name string
	at   uint32
}

// maxTemplateTags bounds the tags scanTemplate reads in one file.
const maxTemplateTags = 20000

// scanTemplate finds the named blocks of Jinja/Django templates ({% block
// name %}…{% endblock %}, {% macro name(args) %}…{% endmacro %}) and of Go
// templates ({{define "name"}}…{{end}}, {{block "name" .}}…{{end}}, with
// if/range/with/else-less nesting counted so each end closes the right
// action), the Go {{template "name"}} calls (refs) and the Jinja templates a
// file extends, includes or imports. A block left open runs to the end of
// the file. It works on the text alone, so it needs no grammar and
// tolerates any markup around the tags.
func scanTemplate(src []byte) (blocks []markupDef, refs, imps []tmplName) {
	type open struct {
		kind string // "block", "macro", or for Go "define"/"block"/"" (if, range, with)
		idx  int    // index in blocks, or -1
	}
	var jinja, gotpl []open
	closeOpen := func(stack []open, at uint32, match func(string) bool) []open {
		for k := len(stack) - 1; k >= 0; k-- {
			if match(stack[k].kind) {
				if i := stack[k].idx; i >= 0 {
					blocks[i].end = at
				}
				return stack[:k]
			}
		}
		return stack
	}
	tags := 0
	for i := 0; i < len(src)-1 && tags < maxTemplateTags; i++ {
		if src[i] != '{' || (src[i+1] != '%' && src[i+1] != '{') {
			continue
		}
		closer := "%}"
		if src[i+1] == '{' {
			closer = "}}"
		}
		j := bytes.Index(src[i+2:], []byte(closer))
		if j < 0 {
			break
		}
		tags++
		start, end := uint32(i), uint32(i+2+j+2)
		body := strings.TrimSpace(strings.Trim(validString(src[i+2:i+2+j]), "-+~"))
		i = int(end) - 1
		word, rest, _ := strings.Cut(body, " ")
		rest = strings.TrimSpace(rest)
		sig := foldSpace(src[start:end], MaxSignatureBytes)
		if closer == "%}" {
			switch word {
			case "block", "macro":
				name := rest
				if k := strings.IndexAny(name, "( "); k >= 0 {
					name = name[:k]
				}
				if name == "" {
					continue
				}
				blocks = append(blocks, markupDef{start, uint32(len(src)), Def{Kind: KindBlock, Name: name, Qualified: name, Signature: sig}})
				jinja = append(jinja, open{word, len(blocks) - 1})
			case "endblock", "endmacro":
				kind := strings.TrimPrefix(word, "end")
				jinja = closeOpen(jinja, end, func(k string) bool { return k == kind })
			case "extends", "include", "import", "from":
				if name := firstQuoted(rest); name != "" {
					imps = append(imps, tmplName{name, start})
				}
			}
			continue
		}
		switch word {
		case "define", "block":
			name := firstQuoted(rest)
			idx := -1
			if name != "" {
				blocks = append(blocks, markupDef{start, uint32(len(src)), Def{Kind: KindBlock, Name: name, Qualified: name, Signature: sig}})
				idx = len(blocks) - 1
			}
			gotpl = append(gotpl, open{word, idx})
		case "if", "range", "with":
			gotpl = append(gotpl, open{"", -1})
		case "end":
			gotpl = closeOpen(gotpl, end, func(string) bool { return true })
		case "template":
			if name := firstQuoted(rest); name != "" {
				refs = append(refs, tmplName{name, start})
			}
		}
	}
	return blocks, refs, imps
}

// firstQuoted returns the first "…", '…' or `…` string of s, or "".
func firstQuoted(s string) string {
	i := strings.IndexAny(s, "\"'`")
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i+1:], s[i])
	if j < 0 {
		return ""
	}
	return s[i+1 : i+1+j]
}
