package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// longFile is a file the tests add to the fixture: longer than one source
// window, with long lines, so that "read on" and line cutting show.
const longFile = "go/inventory/ledger_long.go"

// oddFile has a name that URLs and file names must escape.
const oddFile = "docs/odd name %#?.md"

// fixtureRoot copies fixtures/polyglot with the extra files into a new
// folder, builds its index there (engine/wiki's build path) and returns it.
func fixtureRoot(t testing.TB) string {
	t.Helper()
	root := walktest.CopyFixture(t, "polyglot")
	var b strings.Builder
	b.WriteString("package inventory\n\n// Ledger keeps entries.\ntype Ledger struct{ entries []int }\n\n")
	for i := range 300 {
		fmt.Fprintf(&b, "// Entry%d returns entry %d of the ledger, a long comment to make a long line: %s\nfunc (l *Ledger) Entry%d() int { return l.entries[%d] }\n\n",
			i, i, strings.Repeat("x", 450), i, i)
	}
	walktest.WriteFile(t, root, longFile, b.String())
	walktest.WriteFile(t, root, oddFile, "# Odd name\n\nA file whose name needs escaping. Links: [site](https://example.com/x), "+
		"![logo](logo.png), [bad](javascript:alert(1)), [arch](architecture.md), [up](../../etc/passwd), [here](#odd-name), <https://example.org>.\n\n"+
		"| a | b |\n| - | - |\n| 1 | 2 |\n\n<script>alert(1)</script>\n")
	build(t, root)
	return root
}

// build runs the build every front end runs.
func build(t testing.TB, root string) {
	t.Helper()
	if _, err := wiki.Build(context.Background(), wiki.BuildOptions{Root: root, IndexDir: filepath.Join(root, ".wikitoolkit")}); err != nil {
		t.Fatalf("build %s: %v", root, err)
	}
}

// newServer returns a Server on root's index, closed with the test.
func newServer(t testing.TB, root string) *Server {
	t.Helper()
	srv, err := New(Options{IndexDir: filepath.Join(root, ".wikitoolkit"), Root: root, CheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// start serves a fresh fixture over real HTTP and returns the server, its
// URL and the fixture's root.
func start(t testing.TB) (*Server, *httptest.Server, string) {
	t.Helper()
	root := fixtureRoot(t)
	srv := newServer(t, root)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return srv, ts, root
}
