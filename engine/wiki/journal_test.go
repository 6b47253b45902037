package wiki

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestJournalSince holds the journal's answers: nothing before an epoch,
// the paths noted after a token (each once, sorted), "walk" for a token
// of another epoch, of a lost one, or older than what it keeps.
func TestJournalSince(t *testing.T) {
	var j journal
	if a := j.since(""); a.Token != "" || a.Walk == "" {
		t.Fatalf("before an epoch: %+v, want no token and a walk", a)
	}
	j.note("a.go") // before the epoch: not kept
	j.start("/r", "opts")
	t0 := j.since("").Token
	if !strings.Contains(t0, ":") {
		t.Fatalf("token %q", t0)
	}
	if a := j.since(""); a.Walk == "" || a.Root != "/r" || a.Options != "opts" {
		t.Fatalf("no token: %+v, want a walk with the root and options", a)
	}
	j.note("b/c.go")
	j.note("a.go")
	j.note("b/c.go")
	a := j.since(t0)
	if a.Walk != "" || !slices.Equal(a.Paths, []string{"a.go", "b/c.go"}) {
		t.Fatalf("since %s: %+v", t0, a)
	}
	t1 := a.Token
	if a := j.since(t1); a.Walk != "" || len(a.Paths) != 0 || a.Token != t1 {
		t.Fatalf("since the token of now: %+v, want nothing", a)
	}
	j.start("/r", "opts") // the same epoch goes on
	if a := j.since(t1); a.Walk != "" {
		t.Fatalf("start with the same root and options ended the epoch: %+v", a)
	}
	for _, bad := range []string{"nonsense", "x:1", t1 + "0", strings.Split(t1, ":")[0] + ":-1"} {
		if a := j.since(bad); a.Walk == "" {
			t.Errorf("token %q: %+v, want a walk", bad, a)
		}
	}
	// More than it keeps: old tokens walk, recent ones do not.
	for i := range maxJournal + 10 {
		j.note(fmt.Sprintf("f%d.go", i))
	}
	if a := j.since(t1); a.Walk == "" {
		t.Fatalf("a token older than the journal keeps: %+v, want a walk", a)
	}
	t2 := j.since("").Token
	j.note("z.go")
	if a := j.since(t2); a.Walk != "" || !slices.Equal(a.Paths, []string{"z.go"}) {
		t.Fatalf("since %s: %+v", t2, a)
	}
	// Lost events: every token walks, and a new epoch's tokens differ.
	j.lose()
	j.note("y.go")
	if a := j.since(t2); a.Walk == "" || a.Token != "" {
		t.Fatalf("after events were lost: %+v", a)
	}
	j.start("/r", "opts")
	if a := j.since(t2); a.Walk == "" {
		t.Fatalf("a token of the epoch before: %+v, want a walk", a)
	}
	// Other walk options end the epoch.
	t3 := j.since("").Token
	if !j.optionsMoved("other") || j.optionsMoved("opts") {
		t.Fatal("optionsMoved")
	}
	j.start("/r", "other")
	if a := j.since(t3); a.Walk == "" {
		t.Fatalf("a token of other options: %+v, want a walk", a)
	}
}

// TestJournalAnswerWaitsForEvents asks the watcher of a live view, right
// after files change, what changed since a token: the answer holds them
// although the watcher handles each event 30 ms late (its cookie's event
// comes after theirs), a new directory and the file made in it at once
// among them; a token from before an ignore file changed is answered
// "walk". Through the socket, as a build asks.
func TestJournalAnswerWaitsForEvents(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true, eventDelay: 30 * time.Millisecond})
	ask := func(tok string) *watchAnswer {
		t.Helper()
		a, err := askWatcher(context.Background(), r.live.dir, tok)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	var tok string
	r.waitFor("the watcher vouches for its answers", func() bool {
		a, err := askWatcher(context.Background(), r.live.dir, "")
		if err == nil && a.Token != "" {
			tok = a.Token
			return true
		}
		return false
	})
	if a := ask(tok); a.Walk != "" || len(a.Paths) != 0 {
		t.Fatalf("nothing changed: %+v", a)
	}
	r.write("pay/refund.go", "package pay\n\n// Refund gives back.\nfunc Refund() {}\n")
	r.write("cart/cart.go", "package cart\n")
	r.write("inv/stock.go", "package inv\n")
	a := ask(tok)
	if a.Walk != "" || !slices.Contains(a.Paths, "pay/refund.go") || !slices.Contains(a.Paths, "cart/cart.go") || !slices.Contains(a.Paths, "inv") {
		t.Fatalf("right after three saves: %+v; want pay/refund.go, cart/cart.go and the new directory inv", a)
	}
	if a.Root != r.root && a.Root != mustEval(t, r.root) {
		t.Errorf("root %q, want %q", a.Root, r.root)
	}
	next := a.Token
	r.write(".gitignore", "gen/\n")
	if a := ask(next); a.Walk == "" {
		t.Fatalf("after an ignore file changed: %+v, want a walk", a)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	q, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
