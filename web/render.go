package web

import (
	"embed"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"
)

//go:embed templates/*.tmpl static/style.css static/chroma.css
var assets embed.FS

// templates are parsed once; each page kind is one named template.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"lower": strings.ToLower,
		"n":     count1,
	}).ParseFS(assets, "templates/*.tmpl"))
})

// render writes template name with v.
func render(w io.Writer, name string, v any) error {
	return templates().ExecuteTemplate(w, name, v)
}

// stylesheet is the one stylesheet: the site's, then the highlighter's
// classes.
var stylesheet = sync.OnceValue(func() string {
	b, err := assets.ReadFile("static/style.css")
	if err != nil {
		panic(err) // embedded at build time
	}
	hl, err := assets.ReadFile("static/chroma.css")
	if err != nil {
		panic(err)
	}
	return string(b) + "\n/* syntax highlighting (chroma, github style) */\n" + string(hl)
})

// errorView is an error page.
type errorView struct {
	head
	Status  int
	Message string
}

// count1 writes n with word, plural unless n is 1 ("1 file", "3 files").
func count1(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
