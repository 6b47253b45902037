package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

var (
	hrefRe = regexp.MustCompile(`(?:href|action|src)="([^"]*)"`)
	idRe   = regexp.MustCompile(` id="([^"]+)"`)
)

// get fetches u (a path on ts) and returns the status and body.
func get(t testing.TB, ts string, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(ts + u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	return resp.StatusCode, string(b)
}

// pageLinks returns the URLs a page links to (hrefs and form actions),
// unescaped from HTML.
func pageLinks(body string) []string {
	var out []string
	for _, m := range hrefRe.FindAllStringSubmatch(body, -1) {
		out = append(out, strings.ReplaceAll(strings.ReplaceAll(m[1], "&amp;", "&"), "&#43;", "+"))
	}
	return out
}

// TestCrawl follows every link from the home page: each answers 200, each
// fragment names an element of its page, and nothing links off the site.
func TestCrawl(t *testing.T) {
	srv, ts, _ := start(t)
	// A note and a memory, so that their pages and lists are crawled too.
	w, release := srv.Live().AnnotationWriter()
	if _, err := w.Note("symbol:go/inventory/store.go#Store.Restock", "restock checks the ISBN first"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Remember(annotate.Memory{Title: "Stock rules", Text: "stock never goes below zero", Link: "file:go/inventory/store.go"}); err != nil {
		t.Fatal(err)
	}
	release()
	base, _ := url.Parse(ts.URL + "/")
	seen := map[string]bool{"/": true}
	ids := map[string]map[string]bool{}
	queue := []string{"/"}
	type frag struct{ from, page, id string }
	var frags []frag
	for len(queue) > 0 && len(seen) < 5000 {
		u := queue[0]
		queue = queue[1:]
		code, body := get(t, ts.URL, u)
		if code != http.StatusOK {
			t.Errorf("GET %s: %d\n%s", u, code, body)
			continue
		}
		ids[u] = map[string]bool{}
		for _, m := range idRe.FindAllStringSubmatch(body, -1) {
			ids[u][m[1]] = true
		}
		for _, l := range pageLinks(body) {
			ref, err := base.Parse(l)
			if err != nil {
				t.Errorf("%s links to %q: %v", u, l, err)
				continue
			}
			if ref.Host != base.Host {
				if !strings.HasPrefix(u, "/page/doc:") || (ref.Scheme != "https" && ref.Scheme != "http") {
					t.Errorf("%s links off the site: %q (only a doc's own links may)", u, l)
				}
				continue
			}
			if l == "/note" || l == "/remember" || l == "/search" { // form actions
				continue
			}
			page := ref.EscapedPath()
			if ref.RawQuery != "" {
				page += "?" + ref.RawQuery
			}
			if ref.Fragment != "" {
				p := page
				if strings.HasPrefix(l, "#") {
					p = u
				}
				frags = append(frags, frag{u, p, ref.Fragment})
			}
			if !seen[page] {
				seen[page] = true
				queue = append(queue, page)
			}
		}
	}
	for _, f := range frags {
		if ids[f.page] != nil && !ids[f.page][f.id] {
			t.Errorf("%s links to %s#%s, which has no element %q", f.from, f.page, f.id, f.id)
		}
	}
	if len(seen) < 100 {
		t.Errorf("the crawl reached only %d pages: %v", len(seen), seen)
	}
	for _, want := range []string{"/page/module:go/inventory", "/page/file:go/inventory/store.go", "/page/symbol:go/inventory/store.go%23Store.Restock",
		"/page/doc:README.md%23building", "/graph/file:go/inventory/store.go", "/page/memory:stock-rules", "/page/file:" + escapeID(longFile) + "?from=201"} {
		if !seen[want] {
			t.Errorf("the crawl never reached %s", want)
		}
	}
	t.Logf("crawled %d pages", len(seen))
}

// TestFilePage: source with an anchor per line, links to the symbols.
func TestFilePage(t *testing.T) {
	_, ts, _ := start(t)
	code, body := get(t, ts.URL, "/page/file:go/inventory/store.go")
	if code != http.StatusOK {
		t.Fatalf("%d\n%s", code, body)
	}
	for _, want := range []string{`id="L29"`, `href="#L29"`, `href="/page/symbol:go/inventory/store.go%23Store.Restock"`,
		`<span class="kd">func</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the file page lacks %s", want)
		}
	}
	// A long file: the first window, then "read on" to the next.
	code, body = get(t, ts.URL, "/page/file:"+escapeID(longFile))
	if code != http.StatusOK || !strings.Contains(body, `id="L200"`) || strings.Contains(body, `id="L201"`) ||
		!strings.Contains(body, "?from=201") || !strings.Contains(body, "long lines are cut") {
		t.Errorf("long file, first window: %d, want lines 1-200 and read on at 201, lines cut\n%.3000s", code, body)
	}
	if len(body) > 150<<10 {
		t.Errorf("the long file's page weighs %d bytes, more than 150 KB", len(body))
	}
	code, body = get(t, ts.URL, "/page/file:"+escapeID(longFile)+"?from=250#L260")
	if code != http.StatusOK || !strings.Contains(body, `id="L201"`) || !strings.Contains(body, `id="L260"`) {
		t.Errorf("from=250 should show the window from 201: %d", code)
	}
}

// TestSymbolPage: a symbol page links its callers and its file's line.
func TestSymbolPage(t *testing.T) {
	_, ts, _ := start(t)
	code, body := get(t, ts.URL, "/page/symbol:go/inventory/store.go%23Store.Restock")
	if code != http.StatusOK {
		t.Fatalf("%d\n%s", code, body)
	}
	i := strings.Index(body, `data-rel="references in"`)
	if i < 0 {
		t.Fatalf("no callers section:\n%s", body)
	}
	callers := body[i:]
	callers = callers[:strings.Index(callers, "</section>")]
	if !strings.Contains(callers, `href="/page/symbol:go/cmd/stockreport/main.go%23main"`) {
		t.Errorf("the callers do not link main:\n%s", callers)
	}
	if !strings.Contains(callers, `class="conf c-`) || !strings.Contains(callers, "· call") {
		t.Errorf("the callers do not say how sure each is and how it is used:\n%s", callers)
	}
	for _, want := range []string{`<svg class="graph"`, `href="/page/file:go/inventory/store.go#L29"`, `id="L29"`, "Restock adds copies"} {
		if !strings.Contains(body, want) {
			t.Errorf("the symbol page lacks %s", want)
		}
	}
}

// TestDocPage: a doc section is rendered Markdown whose links work in the
// wiki; images, raw HTML and other schemes are left out.
func TestDocPage(t *testing.T) {
	_, ts, _ := start(t)
	code, body := get(t, ts.URL, "/page/"+escapeID("doc:"+oddFile+"#odd-name"))
	if code != 200 {
		t.Fatalf("%d\n%s", code, body)
	}
	for _, want := range []string{`href="https://example.com/x"`, `href="/page/file:docs/architecture.md"`, `href="/page/doc:docs/odd%20name%20%25%23%3F.md%23odd-name"`,
		"<table>", "logo", "https://example.org"} {
		if !strings.Contains(body, want) {
			t.Errorf("the doc page lacks %s", want)
		}
	}
	for _, bad := range []string{"<img", "javascript:", "etc/passwd\"", "<script>alert"} {
		if strings.Contains(body, bad) {
			t.Errorf("the doc page has %s", bad)
		}
	}
}

// TestSearch: a known answer comes first inside #results, and the results
// are wiki_query's (wiki.Query's) in its rank order.
func TestSearch(t *testing.T) {
	srv, ts, _ := start(t)
	for q, want := range map[string]string{
		"Store.Restock":         "/page/symbol:go/inventory/store.go%23Store.Restock",
		"go/inventory/store.go": "/page/file:go/inventory/store.go",
		"restock copies isbn":   "",
		"ledger entry":          "",
	} {
		code, body := get(t, ts.URL, "/search?q="+url.QueryEscape(q))
		if code != http.StatusOK {
			t.Fatalf("%q: %d\n%s", q, code, body)
		}
		i := strings.Index(body, `id="results"`)
		if i < 0 {
			t.Fatalf("%q: no #results", q)
		}
		res := body[i:]
		res = res[:strings.Index(res, "</ol>")]
		var got []string
		for _, li := range strings.Split(res, "<li>")[1:] {
			if m := hrefRe.FindStringSubmatch(li); m != nil {
				got = append(got, m[1])
			}
		}
		if len(got) == 0 {
			t.Errorf("%q: no result", q)
			continue
		}
		if want != "" && got[0] != want {
			t.Errorf("%q: first result %s, want %s", q, got[0], want)
		}
		// The same ranking as wiki_query.
		g, release, err := srv.Live().Acquire()
		if err != nil {
			t.Fatal(err)
		}
		a, _ := srv.Live().Annotations()
		r, err := wiki.Query(context.Background(), g.Snap, g.Index, a, q, engine.Options{BudgetTokens: engine.DefaultBudgetTokens})
		release()
		if err != nil {
			t.Fatal(err)
		}
		var ranked []string
		for _, st := range r.Results {
			ranked = append(ranked, serverLinks.page(st.ID))
		}
		if !slices.Equal(got, ranked) {
			t.Errorf("%q: results\n%v\nwant wiki_query's\n%v", q, got, ranked)
		}
	}
}

// TestWrite: POST without the form's token is refused (403); with it the
// note shows on the page and the memory gets its page.
func TestWrite(t *testing.T) {
	srv, ts, _ := start(t)
	id := "symbol:go/inventory/store.go#Store.Restock"
	post := func(path string, form url.Values, header map[string]string) (int, string) {
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	note := url.Values{"id": {id}, "text": {"restocking an unknown ISBN fails"}}
	if code, _ := post("/note", note, nil); code != http.StatusForbidden {
		t.Errorf("POST /note without the token: %d, want 403", code)
	}
	note.Set("csrf", strings.Repeat("0", len(srv.csrf)))
	if code, _ := post("/note", note, nil); code != http.StatusForbidden {
		t.Errorf("POST /note with a wrong token: %d, want 403", code)
	}
	// The token the page embeds.
	_, page := get(t, ts.URL, "/page/"+escapeID(id))
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page embeds no form token")
	}
	note.Set("csrf", m[1])
	if code, _ := post("/note", note, map[string]string{"Sec-Fetch-Site": "cross-site"}); code != http.StatusForbidden {
		t.Errorf("POST /note from another site: %d, want 403", code)
	}
	if code, body := post("/note", note, nil); code != http.StatusOK {
		t.Fatalf("POST /note: %d\n%s", code, body)
	}
	_, page = get(t, ts.URL, "/page/"+escapeID(id))
	if !strings.Contains(page, "restocking an unknown ISBN fails") {
		t.Errorf("the note is not on the page")
	}
	mem := url.Values{"csrf": {m[1]}, "fact": {"ISBNs are checked by the catalog"}, "title": {"ISBN checks"}, "link": {id}}
	if code, body := post("/remember", mem, nil); code != http.StatusOK || !strings.Contains(body, "ISBNs are checked by the catalog") {
		t.Errorf("POST /remember: %d, want the memory's page\n%.2000s", code, body)
	}
	_, home := get(t, ts.URL, "/")
	if !strings.Contains(home, "ISBN checks") || !strings.Contains(home, "restocking an unknown ISBN fails") {
		t.Errorf("the home page does not list the new note and memory")
	}
	if code, _ := post("/note", url.Values{"csrf": {m[1]}, "id": {"file:nope.go"}, "text": {"x"}}, nil); code != http.StatusNotFound {
		t.Errorf("a note on a missing page: %d, want 404", code)
	}
}

// TestBadInput: unknown and malformed IDs are 404 pages, traversal finds
// nothing, a huge query is refused, and the server keeps answering.
func TestBadInput(t *testing.T) {
	_, ts, _ := start(t)
	for _, c := range []struct {
		path string
		code int
		want string
	}{
		{"/page/file:nope.go", 404, "No such page"},
		{"/page/symbol:go/inventory/store.go%23Store.Restok", 404, "did you mean"},
		{"/page/file:../../../etc/passwd", 404, "No such page"},
		{"/page/file:%2E%2E/%2E%2E/etc/passwd", 404, "No such page"},
		{"/page/file:/etc/passwd", 404, "No such page"},
		{"/page/module:..", 404, "No such page"},
		{"/page/nonsense", 404, "No such page"},
		{"/page/file:go%00/x", 404, "No such page"},
		{"/graph/file:../x", 404, "No such page"},
		{"/static/../../etc/passwd", 404, ""},
		{"/nothing/here", 404, "No such page"},
		{"/page/file:go/inventory/store.go?from=abc", 400, "not a line number"},
		{"/page/file:go/inventory/store.go?from=99999", 200, "past its end"},
		{"/search?q=" + strings.Repeat("a", 2000), 400, "too long"},
		{"/search?q=" + strings.Repeat("ab%20", 4000), 414, "too long"},
		{"/search?q=%ff%fe%00", 200, "results"},
	} {
		code, body := get(t, ts.URL, c.path)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("GET %.80s: %d, want %d with %q\n%.500s", c.path, code, c.code, c.want, body)
		}
		if strings.Contains(body, "root:x:0") {
			t.Errorf("GET %s shows /etc/passwd", c.path)
		}
	}
	// A request line far beyond the header limit is refused by net/http
	// and the server still answers.
	resp, err := http.Get(ts.URL + "/search?q=" + strings.Repeat("x", 2<<20))
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("a 2 MB query: %d", resp.StatusCode)
		}
	}
	if code, _ := get(t, ts.URL, "/"); code != 200 {
		t.Errorf("the server stopped answering: %d", code)
	}
}

// TestGenerationSwitch: a rebuild while the server runs, and the next
// request shows the new generation.
func TestGenerationSwitch(t *testing.T) {
	srv, ts, root := start(t)
	u := "/page/symbol:go/inventory/audit.go%23Audit"
	if code, _ := get(t, ts.URL, u); code != 404 {
		t.Fatalf("before the build: %d, want 404", code)
	}
	gen := srv.Live().OpenGeneration()
	walktest.WriteFile(t, root, "go/inventory/audit.go", "package inventory\n\n// Audit counts the books on the shelves.\nfunc Audit(s *Store) int { return 0 }\n")
	// Pages keep answering while the build runs and the server swaps.
	stop := make(chan struct{})
	bad := make(chan string, 100)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, u := range []string{"/", "/page/file:go/inventory/store.go", "/search?q=Store.Restock"} {
					resp, err := http.Get(ts.URL + u)
					if err != nil {
						bad <- u + ": " + err.Error()
						continue
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						bad <- fmt.Sprintf("%s: %d", u, resp.StatusCode)
					}
				}
			}
		}()
	}
	build(t, root)
	get(t, ts.URL, "/") // the swap
	close(stop)
	wg.Wait()
	close(bad)
	for b := range bad {
		t.Errorf("during the build: %s", b)
	}
	code, body := get(t, ts.URL, u)
	if code != 200 || !strings.Contains(body, "Audit counts the books") {
		t.Errorf("after the build: %d\n%.1000s", code, body)
	}
	if srv.Live().OpenGeneration() == gen {
		t.Errorf("still on generation %d", gen)
	}
	if code, body := get(t, ts.URL, "/search?q=Audit+books+shelves"); code != 200 || !strings.Contains(body, "audit.go%23Audit") {
		t.Errorf("search does not find the new symbol")
	}
}

// TestToken: with a token every request needs it (header or the cookie a
// ?token= visit sets); without one, only loopback names are answered, and
// a non-loopback address is refused.
func TestToken(t *testing.T) {
	root := fixtureRoot(t)
	dir := filepath.Join(root, ".wikitoolkit")
	if _, err := New(Options{IndexDir: dir, Addr: "0.0.0.0:8080"}); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("a non-loopback address without a token: %v", err)
	}
	srv, err := New(Options{IndexDir: dir, Addr: "0.0.0.0:8080", Token: "s3cret", CheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	do := func(req *http.Request) *http.Response {
		w := &recorder{header: http.Header{}}
		h.ServeHTTP(w, req)
		return &http.Response{StatusCode: w.code, Header: w.header}
	}
	req, _ := http.NewRequest("GET", "http://wiki.example:8080/", nil)
	if r := do(req); r.StatusCode != 401 {
		t.Errorf("no token: %d, want 401", r.StatusCode)
	}
	req.Header.Set("Authorization", "Bearer wrong")
	if r := do(req); r.StatusCode != 401 {
		t.Errorf("wrong token: %d, want 401", r.StatusCode)
	}
	req.Header.Set("Authorization", "Bearer s3cret")
	if r := do(req); r.StatusCode != 200 {
		t.Errorf("bearer token: %d, want 200", r.StatusCode)
	}
	req, _ = http.NewRequest("GET", "http://wiki.example:8080/page/file:README.md?token=s3cret", nil)
	r := do(req)
	cookie := r.Header.Get("Set-Cookie")
	if r.StatusCode != 303 || !strings.Contains(cookie, tokenCookie+"=s3cret") || strings.Contains(r.Header.Get("Location"), "token") {
		t.Errorf("?token=: %d %q %q, want 303 setting the cookie and dropping the token", r.StatusCode, cookie, r.Header.Get("Location"))
	}
	req, _ = http.NewRequest("GET", "http://wiki.example:8080/page/file:README.md", nil)
	req.AddCookie(&http.Cookie{Name: tokenCookie, Value: "s3cret"})
	if r := do(req); r.StatusCode != 200 {
		t.Errorf("token cookie: %d, want 200", r.StatusCode)
	}
	// Without a token: another Host (DNS rebinding) is refused.
	open := newServer(t, root)
	req, _ = http.NewRequest("GET", "http://evil.example/", nil)
	if w := (&recorder{header: http.Header{}}); true {
		open.Handler().ServeHTTP(w, req)
		if w.code != 403 {
			t.Errorf("Host evil.example without a token: %d, want 403", w.code)
		}
	}
	// POST from another machine to a server without a token.
	form := url.Values{"csrf": {open.csrf}, "id": {"file:README.md"}, "text": {"x"}}
	req, _ = http.NewRequest("POST", "http://127.0.0.1/note", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = "192.0.2.7:5555"
	w := &recorder{header: http.Header{}}
	open.Handler().ServeHTTP(w, req)
	if w.code != 403 {
		t.Errorf("POST from 192.0.2.7 without a server token: %d, want 403", w.code)
	}
}

// recorder is a minimal http.ResponseWriter.
type recorder struct {
	header http.Header
	code   int
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = 200
	}
	return len(b), nil
}
func (r *recorder) WriteHeader(c int) {
	if r.code == 0 {
		r.code = c
	}
}

// TestExport writes the static site and resolves every relative link to a
// file (and every fragment to an element of it); a second export replaces
// the first; a folder holding other files is refused.
func TestExport(t *testing.T) {
	srv, _, root := start(t)
	dir := t.TempDir()
	res, err := srv.Export(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages < 100 || res.Files <= res.Pages {
		t.Errorf("exported %d pages in %d files; want over 100 pages and more files (windows)", res.Pages, res.Files)
	}
	checkExport(t, dir)
	// Again over the previous export.
	if _, err := srv.Export(context.Background(), dir); err != nil {
		t.Errorf("export over a previous export: %v", err)
	}
	// A folder that is not an export.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "thesis.tex"), []byte("x"), 0o644)
	if _, err := srv.Export(context.Background(), other); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("export into a folder with other files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, "thesis.tex")); err != nil {
		t.Errorf("the refused folder lost its file: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("x"), 0o644)
	if _, err := srv.Export(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "mine.txt") {
		t.Errorf("export over a previous export holding a stray file: %v", err)
	}
	_ = root
}

// checkExport resolves every link of every exported HTML file.
func checkExport(t *testing.T, dir string) {
	t.Helper()
	ids := map[string]map[string]bool{}
	bodies := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			b, _ := os.ReadFile(p)
			bodies[p] = string(b)
			ids[p] = map[string]bool{}
			for _, m := range idRe.FindAllStringSubmatch(string(b), -1) {
				ids[p][m[1]] = true
			}
		}
		return nil
	})
	if len(bodies) < 100 {
		t.Fatalf("only %d HTML files", len(bodies))
	}
	n := 0
	for p, body := range bodies {
		if strings.Contains(body, `<form`) {
			t.Errorf("%s has a form; an export is read-only", p)
		}
		for _, l := range pageLinks(body) {
			if strings.HasPrefix(l, "https://") && strings.Contains(p, string(filepath.Separator)+"doc"+string(filepath.Separator)) {
				continue // a doc's own link to another site
			}
			if strings.Contains(l, "://") || strings.HasPrefix(l, "/") {
				t.Errorf("%s: link %q is not relative", p, l)
				continue
			}
			ref, frag, _ := strings.Cut(l, "#")
			target := p
			if ref != "" {
				u, err := url.PathUnescape(ref)
				if err != nil {
					t.Errorf("%s: link %q: %v", p, l, err)
					continue
				}
				target = filepath.Join(filepath.Dir(p), filepath.FromSlash(u))
			}
			if !strings.HasPrefix(target, dir+string(filepath.Separator)) {
				t.Errorf("%s: link %q leaves the export", p, l)
				continue
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %q does not resolve: %v", p, l, err)
				continue
			}
			if frag != "" && ids[target] != nil && !ids[target][frag] {
				t.Errorf("%s: link %q: no element %q", p, l, frag)
			}
			n++
		}
	}
	t.Logf("%d files, %d links resolved", len(bodies), n)
}

// TestExportPaths: export file names stay inside the folder whatever the ID.
func TestExportPaths(t *testing.T) {
	for _, id := range []string{"file:../x", "file:/etc/passwd", "module:a/../..", "symbol:a.go", "memory:a/b", "file:a\\b"} {
		if p, err := exportPath(id); err == nil {
			t.Errorf("%q: exported to %q, want an error", id, p)
		}
	}
	for id, want := range map[string]string{
		"module:.":                  "module/index.html",
		"module:a/b":                "module/a/b/index.html",
		"file:a/b.go":               "file/a/b.go.html",
		"file:.hidden/x.go":         "file/%2Ehidden/x.go.html",
		"symbol:a.go#../../etc":     "symbol/a.go/%2E.%2F..%2Fetc.html",
		"symbol:a.go#T.m~2":         "symbol/a.go/T.m%7E2.html",
		"doc:README.md#x":           "doc/README.md/x.html",
		"memory:slug":               "memory/slug.html",
		"file:x.html/y.go":          "file/x.htm%6C/y.go.html",
		"file:docs/odd name %#?.md": "file/docs/odd%20name%20%25%23%3F.md.html",
	} {
		p, err := exportPath(id)
		if err != nil || p != want {
			t.Errorf("%q: %q, %v; want %q", id, p, err, want)
		}
		for _, part := range strings.Split(p, "/") {
			if part == ".." || part == "." || part == "" {
				t.Errorf("%q: %q has the element %q", id, p, part)
			}
		}
	}
	long := "symbol:a.go#" + strings.Repeat("x", 400)
	if p, _ := exportPath(long); len(filepath.Base(p)) > 200 {
		t.Errorf("a long name is not cut: %d bytes", len(filepath.Base(p)))
	}
}

// TestSearchFoldsCopies: the keys of versioned copies of a spec come as
// one result that lists the others, on the search page as in wiki_query.
func TestSearchFoldsCopies(t *testing.T) {
	root := t.TempDir()
	spec := "swagger: \"2.0\"\ndefinitions:\n  ImageSummary:\n    type: object\n    description: an image in the store\n"
	walktest.WriteFile(t, root, "api/swagger.yaml", spec)
	for _, v := range []string{"v1.40", "v1.41", "v1.42", "v1.43"} {
		walktest.WriteFile(t, root, "api/docs/"+v+".yaml", spec)
	}
	walktest.WriteFile(t, root, "images/summary.go", "package images\n\n// ImageSummary describes an image.\ntype ImageSummary struct{ ID string }\n")
	build(t, root)
	ts := httptest.NewServer(newServer(t, root).Handler())
	t.Cleanup(ts.Close)
	code, body := get(t, ts.URL, "/search?q=ImageSummary")
	if code != http.StatusOK {
		t.Fatalf("%d\n%s", code, body)
	}
	i := strings.Index(body, `id="results"`)
	if i < 0 {
		t.Fatalf("no #results:\n%s", body)
	}
	res := body[i:]
	res = res[:strings.Index(res, "</ol>")]
	if n := strings.Count(res, `class="name">definitions.ImageSummary<`); n != 1 {
		t.Errorf("%d results name definitions.ImageSummary, want 1 (the copies folded):\n%s", n, res)
	}
	// One of the five is the result, the other four its copies.
	if !strings.Contains(res, "copies:") {
		t.Errorf("no copies listed:\n%s", res)
	}
	for _, p := range []string{"api/swagger.yaml", "api/docs/v1.40.yaml", "api/docs/v1.41.yaml", "api/docs/v1.42.yaml", "api/docs/v1.43.yaml"} {
		if !strings.Contains(res, p) {
			t.Errorf("%s is missing:\n%s", p, res)
		}
	}
	if !strings.Contains(res, "images/summary.go") {
		t.Errorf("the Go type is missing:\n%s", res)
	}
}
