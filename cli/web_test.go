package cli

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestWebCommand runs the real `wikitoolkit web`: it prints its URL, serves
// the wiki there, stops on SIGTERM; a non-loopback address without a token
// is bad usage; --export writes a site and refuses a folder of other files.
func TestWebCommand(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	mustRun(t, root, "build", "--quiet")

	out, _, code := run(t, root, "web", "--help")
	if code != 0 || !strings.Contains(out, "--export") || !strings.Contains(out, "token") {
		t.Errorf("web --help: exit %d\n%s", code, out)
	}
	if _, errs, code := run(t, root, "web", "--http", "0.0.0.0:0"); code != 2 || !strings.Contains(errs, "token") {
		t.Errorf("web on 0.0.0.0 without a token: exit %d, want 2 saying a token is needed\n%s", code, errs)
	}

	cmd := exec.Command(binPath, "web", "--http", "127.0.0.1:0", "--no-watch")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=", "WIKITOOLKIT_TOKEN=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var url string
	select {
	case l := <-lines:
		m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(l)
		if m == "" {
			t.Fatalf("first stderr line has no URL: %q", l)
		}
		url = m
	case <-time.After(60 * time.Second):
		t.Fatal("web printed no URL")
	}
	for path, want := range map[string]string{"": "Modules", "page/file:go/inventory/store.go": `id="L29"`, "search?q=Store.Restock": `id="results"`} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET /%s: %d, want 200 with %s", path, resp.StatusCode, want)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() {
		for range lines {
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("web after SIGTERM: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("web did not stop on SIGTERM")
	}

	site := filepath.Join(t.TempDir(), "site")
	if _, errs, code := run(t, root, "web", "--export", site); code != 0 || !strings.Contains(errs, "exported") {
		t.Errorf("web --export: exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(site, "file", "go", "inventory", "store.go.html")); err != nil {
		t.Errorf("the export lacks the file page: %v", err)
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	if _, errs, code := run(t, root, "web", "--export", other); code != 1 || !strings.Contains(errs, "not empty") {
		t.Errorf("web --export into a folder of other files: exit %d, want 1\n%s", code, errs)
	}
}
