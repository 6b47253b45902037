package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestStatusAgreesWithFreshness adds, modifies and removes a file after the
// build: `status` (CollectStatus without a server) and the server's
// freshness check (what wiki_status shows) must list the same three.
func TestStatusAgreesWithFreshness(t *testing.T) {
	cs, srv, root := connect(t, Options{CheckEvery: time.Millisecond})
	walktest.WriteTree(t, root, map[string]string{
		"pay/refund.go": "package pay\n\n// Refund returns money.\nfunc Refund(amount int) error { return nil }\n",
		"pay/retry.go":  fixture["pay/retry.go"] + "\n// Extra is new.\nfunc Extra() {}\n",
	})
	if err := os.Remove(filepath.Join(root, "cart", "cart.go")); err != nil {
		t.Fatal(err)
	}
	want := []string{"cart/cart.go", "pay/refund.go", "pay/retry.go"}

	snap, err := graph.OpenSnapshot(filepath.Join(root, graph.IndexDirName))
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	st, err := wiki.CollectStatus(snap, nil, wiki.StatusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.Stale, want) || st.StaleFiles != len(want) {
		t.Errorf("status: %d stale %q, want %q", st.StaleFiles, st.Stale, want)
	}

	var served []string
	n, checked := 0, false
	for deadline := time.Now().Add(20 * time.Second); !checked && time.Now().Before(deadline); {
		callTool(t, cs, "wiki_status", nil)
		f := srv.live.Freshness()
		served, n, checked = f.Stale, f.StaleCount, f.Checked
		time.Sleep(5 * time.Millisecond)
	}
	if !checked {
		t.Fatal("the server's freshness check did not run")
	}
	if !slices.Equal(served, st.Stale) || n != st.StaleFiles {
		t.Errorf("server's freshness: %d stale %q; status: %d stale %q", n, served, st.StaleFiles, st.Stale)
	}
}
