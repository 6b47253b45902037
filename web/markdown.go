package web

import (
	"bytes"
	"html/template"
	"path"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// md renders Markdown without raw HTML (goldmark's default leaves it out)
// and with tables and strike-through.
var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// maxMarkdownBytes bounds the Markdown rendered on one page.
const maxMarkdownBytes = 64 << 10

// renderMarkdown renders the Markdown of a doc section of the file at rel.
// Links are made to work in the wiki: a relative link to a file or folder
// of the repository goes to its page (a "#heading" to the section's page
// when there is one), http(s) and mailto links stay, and any other link,
// and every image (the pages load nothing from elsewhere), is left as its
// text.
func renderMarkdown(g *graph.Graph, rel, src string, l links) template.HTML {
	if len(src) > maxMarkdownBytes {
		src = strings.ToValidUTF8(src[:maxMarkdownBytes], "")
	}
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	var unwrapList []ast.Node
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Image:
			unwrapList = append(unwrapList, n)
		case *ast.Link:
			if dest, ok := mdLink(g, rel, string(n.Destination), l); ok {
				n.Destination = []byte(dest)
			} else {
				unwrapList = append(unwrapList, n)
			}
		case *ast.AutoLink:
			if u := string(n.URL(source)); !external(u) && n.AutoLinkType != ast.AutoLinkEmail {
				unwrapList = append(unwrapList, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range unwrapList {
		unwrap(n, source)
	}
	var b bytes.Buffer
	if err := md.Renderer().Render(&b, source, doc); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(b.String()) // goldmark escapes text and drops raw HTML
}

// external reports a link to another site that a page may keep.
func external(u string) bool {
	lu := strings.ToLower(u)
	return strings.HasPrefix(lu, "https://") || strings.HasPrefix(lu, "http://") || strings.HasPrefix(lu, "mailto:")
}

// mdLink maps a Markdown link of the doc at rel to a URL of the wiki, or
// says to drop it.
func mdLink(g *graph.Graph, rel, dest string, l links) (string, bool) {
	if external(dest) {
		return dest, true
	}
	for _, id := range linkTargets(rel, dest) {
		if has(g, id) {
			return l.page(id), true
		}
	}
	return "", false
}

// linkTargets returns the pages a relative Markdown link of the doc at
// rel may go to, the first that exists taken: the section its fragment
// names, the file, the folder. None for a link to another site or
// scheme, or out of the repository.
func linkTargets(rel, dest string) []string {
	if strings.Contains(dest, ":") || strings.HasPrefix(dest, "//") {
		return nil // http:, javascript:, data:, another scheme, a host
	}
	target, frag, _ := strings.Cut(dest, "#")
	if i := strings.IndexByte(target, '?'); i >= 0 {
		target = target[:i]
	}
	p := rel
	if target != "" {
		if strings.HasPrefix(target, "/") {
			p = path.Clean(strings.TrimPrefix(target, "/"))
		} else {
			p = path.Join(path.Dir(rel), target)
		}
	}
	if p == "" || p == ".." || strings.HasPrefix(p, "../") {
		return nil
	}
	var out []string
	if frag != "" {
		out = append(out, graph.DocID(p, strings.ToLower(frag)))
	}
	return append(out, graph.FileID(p), graph.ModuleID(p))
}

// markdownTargets returns the pages the links of the Markdown src of the
// doc at rel may go to (linkTargets), for the page to read with it.
func markdownTargets(rel, src string) []string {
	if len(src) > maxMarkdownBytes {
		src = strings.ToValidUTF8(src[:maxMarkdownBytes], "")
	}
	var out []string
	doc := md.Parser().Parse(text.NewReader([]byte(src)))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			out = append(out, linkTargets(rel, string(l.Destination))...)
		}
		return ast.WalkContinue, nil
	})
	return out
}

func has(g *graph.Graph, id string) bool {
	if _, _, _, err := graph.ParseID(id); err != nil {
		return false
	}
	_, ok := g.Lookup(id)
	return ok
}

// unwrap replaces n by its children (a link by its text, an image by its
// alt text); an autolink becomes its URL as text.
func unwrap(n ast.Node, source []byte) {
	parent := n.Parent()
	if parent == nil {
		return
	}
	if a, ok := n.(*ast.AutoLink); ok {
		parent.ReplaceChild(parent, n, ast.NewString(a.URL(source)))
		return
	}
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	parent.RemoveChild(parent, n)
}
