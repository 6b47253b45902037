package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium returns the path of a headless-capable Chromium, or skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	t.Skip("no Chromium on PATH: install it (Debian: apt-get install chromium; .ci/run does when apt is there) to run the browser test")
	return ""
}

// consoleErr matches what Chromium logs for a page's console errors and
// uncaught exceptions, failed loads and policy violations among them.
var consoleErr = regexp.MustCompile(`(?i)(Uncaught|CONSOLE\(\d+\)\].*(error|failed|refused|violat)|Refused to)`)

// loadPage loads url in headless Chromium and returns the DOM it built and
// the console errors it logged.
func loadPage(t *testing.T, bin, url string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+t.TempDir(),
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom", url)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, errb.String())
	}
	var errs []string
	for _, l := range strings.Split(errb.String(), "\n") {
		if consoleErr.MatchString(l) {
			errs = append(errs, l)
		}
	}
	return out.String(), errs
}

// TestBrowser loads the home page and a file page in headless Chromium and
// fails on console errors; a page that throws proves the check sees them.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	_, ts, _ := start(t)
	for _, c := range []struct{ path, want string }{
		{"/", "Most referenced files"},
		{"/page/file:go/inventory/store.go", `id="L29"`},
		{"/page/symbol:go/inventory/store.go%23Store.Restock", `class="graph"`},
		{"/search?q=Store.Restock", `id="results"`},
	} {
		dom, errs := loadPage(t, bin, ts.URL+c.path)
		if len(errs) > 0 {
			t.Errorf("%s: console errors:\n%s", c.path, strings.Join(errs, "\n"))
		}
		if !strings.Contains(dom, c.want) || !strings.Contains(dom, "</main>") {
			t.Errorf("%s: the DOM lacks %s:\n%.1500s", c.path, c.want, dom)
		}
	}
	// The control: an uncaught exception and a missing stylesheet are seen.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `<!DOCTYPE html><html><head><link rel="stylesheet" href="/missing.css"></head><body><script>throw new Error("boom")</script></body></html>`)
	}))
	defer bad.Close()
	if _, errs := loadPage(t, bin, bad.URL+"/"); len(errs) == 0 {
		t.Errorf("the console check saw no error on a page that throws and misses its stylesheet")
	}
}
