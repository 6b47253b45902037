package parser

import (
	"bytes"
	"context"
	"path"
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/svelte"
)

// Svelte: the component itself (a class named after the file, documented
// by its <!-- @component --> comment) holding the definitions, references,
// imports and literals of its <script> blocks, parsed as TypeScript (lang="ts")
// or JavaScript; the components its markup uses (<Icon …/>) are references
// and elements with an id are elements, as in HTML.
func init() {
	register(&langSpec{name: "svelte", grammar: svelte.GetLanguage, extract: extractSvelte}, []string{".svelte"})
}

func extractSvelte(p *Parser, file string, tree *sitter.Tree, src []byte, f *Facts) {
	// The scripts' text at its own offsets, everything else blanked (newlines
	// kept), so that lines, docs and nesting come out as in the file.
	var scripts [][2]uint32
	ts := false
	var markup []markupDef
	var uses []tmplName
	walkMarkup(tree.RootNode(), src, func(n *sitter.Node, tag string, start *sitter.Node) {
		if n.Type() == "script_element" {
			if l, _ := attr(start, src, "lang"); l == "ts" || l == "typescript" {
				ts = true
			}
			cnt := int(n.NamedChildCount())
			for i := 0; i < cnt; i++ {
				if c := n.NamedChild(i); c != nil && c.Type() == "raw_text" {
					st, en := nodeRange(c, len(src))
					scripts = append(scripts, [2]uint32{st, en})
				}
			}
			return
		}
		if tag != "" && unicode.IsUpper(rune(tag[0])) {
			st, _ := nodeRange(start, len(src))
			uses = append(uses, tmplName{strings.SplitN(tag, ".", 2)[0], st})
		}
		markup = append(markup, p.markupDefs(n, tag, start, src)...)
	})
	if len(scripts) > 0 {
		blank := make([]byte, len(src))
		for i, c := range src {
			if c == '\n' {
				blank[i] = '\n'
			} else {
				blank[i] = ' '
			}
		}
		for _, r := range scripts {
			copy(blank[r[0]:r[1]], src[r[0]:r[1]])
		}
		js := specs["javascript"]
		if ts {
			js = specs["typescript"]
		}
		if err := js.load(); err == nil {
			p.ts.SetLanguage(js.lang)
			p.cur = js
			if t, err := p.ts.ParseCtx(context.Background(), nil, blank); err == nil {
				p.extractCode(js, t, blank, f)
				p.diagnose(t.RootNode(), blank, f)
				t.Close()
			}
		}
	}
	// The component, first, holding everything else.
	name := strings.TrimSuffix(path.Base(strings.ReplaceAll(file, "\\", "/")), path.Ext(file))
	comp := Def{Kind: KindClass, Name: name, Qualified: name, Parent: -1, StartLine: 1,
		EndLine: max(1, p.lines.endLine(0, uint32(len(src)))), Signature: "component " + name,
		Doc: componentDoc(src, p.lines)}
	f.Defs = append([]Def{comp}, f.Defs...)
	for i := 1; i < len(f.Defs); i++ {
		f.Defs[i].Parent++ // -1 (top level) becomes the component
	}
	for i := range f.Refs {
		f.Refs[i].Enclosing++
	}
	for i := range f.Literals {
		f.Literals[i].Enclosing++
	}
	nestMarkupUnder(markup, f)
	for _, u := range uses {
		f.Refs = append(f.Refs, Ref{Name: u.name, Kind: RefType, Line: int32(p.lines.line(u.at) + 1), Enclosing: 0})
	}
	f.Doc = comp.Doc
}

// nestMarkupUnder appends markup definitions nested among themselves, their
// top ones under definition 0 (the component).
func nestMarkupUnder(defs []markupDef, f *Facts) {
	base := len(f.Defs)
	nestMarkup(defs, f)
	for i := base; i < len(f.Defs); i++ {
		if f.Defs[i].Parent < 0 {
			f.Defs[i].Parent = 0
		}
	}
}

// componentDoc is the text of the <!-- @component … --> comment, else the
// comment at the top of the file.
func componentDoc(src []byte, li lineIndex) string {
	open := []byte("<!-- @component")
	if i := bytes.Index(src, open); i >= 0 {
		if j := bytes.Index(src[i:], []byte("-->")); j >= 0 {
			return finishDoc(bytes.Split(bytes.TrimSpace(src[i+len(open):i+j]), []byte("\n")))
		}
	}
	return markupDocAbove(src, li, firstContentLine(src))
}
