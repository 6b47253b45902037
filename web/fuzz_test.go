package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"strings"
	"testing"
)

// FuzzExportPath: any ID either is refused or maps to a clean relative
// path under the export folder, one path per ID.
func FuzzExportPath(f *testing.F) {
	for _, s := range []string{"file:a.go", "symbol:a/b.go#T.m~2", "module:.", "doc:x.md#y", "memory:z", "file:../x", "symbol:a.go#../../e", "file:x.html/y"} {
		f.Add(s)
	}
	seen := map[string]string{}
	f.Fuzz(func(t *testing.T, id string) {
		p, err := exportPath(id)
		if err != nil {
			return
		}
		if p == "" || strings.HasPrefix(p, "/") || path.Clean(p) != p || strings.Contains(p, "\x00") {
			t.Fatalf("%q: export path %q is not clean and relative", id, p)
		}
		for _, part := range strings.Split(p, "/") {
			if part == ".." || part == "." || len(part) > 255 {
				t.Fatalf("%q: export path %q has element %q", id, p, part)
			}
		}
		if other, ok := seen[p]; ok && other != id && len(p) < maxNameBytes {
			t.Fatalf("%q and %q both export to %q", id, other, p)
		}
		seen[p] = id
		// The link to it names it.
		u := exportLinks("index.html").page(id)
		if back, err := url.PathUnescape(u); err != nil || back != p {
			t.Fatalf("%q: link %q unescapes to %q, want %q (%v)", id, u, back, p, err)
		}
	})
}

// FuzzRequest: no request path or query makes the server fail (5xx) or
// panic.
func FuzzRequest(f *testing.F) {
	srv := newServer(f, fixtureRoot(f))
	h := srv.Handler()
	for _, s := range []string{"/", "/page/file:go/inventory/store.go", "/page/symbol:a%23b", "/graph/x", "/search?q=%ff", "/page/file:x?from=-1", "/page/%00", "/static/style.css"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n\t") {
			return
		}
		if _, err := url.ParseRequestURI(target); err != nil {
			return
		}
		req := httptest.NewRequest("GET", "http://127.0.0.1"+target, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 || w.Code == 0 {
			t.Fatalf("GET %q: %d\n%s", target, w.Code, w.Body.String())
		}
		if w.Code != http.StatusOK && w.Code/100 != 3 && !strings.Contains(w.Body.String(), "</html>") {
			t.Fatalf("GET %q: %d without an error page", target, w.Code)
		}
	})
}

// FuzzGoTokens: the Go tokens give back their source byte for byte,
// whatever it holds (a window may start inside a comment or a string).
func FuzzGoTokens(f *testing.F) {
	for _, s := range []string{"package p\n", "`raw\r\nstring", "/* open comment\r\n x := 1", "x := \"a\\\"b\" // c\r\n", "\x00\xff'", "a.b(c)[d]{e}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var b strings.Builder
		for _, tk := range goTokens(src) {
			b.WriteString(tk.Value)
		}
		if b.String() != src {
			t.Fatalf("tokens give back %q, want %q", b.String(), src)
		}
	})
}
