package parser

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestParseCancelled: a parse stops when the context of the build ends,
// through the one goroutine per Parser that watches it (cancel.go), and the
// Parser then parses the next file from scratch, under a new context or
// none.
func TestParseCancelled(t *testing.T) {
	p := NewParser()
	defer p.Close()
	if p.cancel == nil {
		t.Fatal("cancelFlag found no cancellation flag in go-tree-sitter's Parser: its fields changed; update cancel.go")
	}
	s, err := p.spec("big.go")
	if err != nil {
		t.Fatal(err)
	}
	// Megabytes of Go take tree-sitter a long time next to the start of
	// the goroutine that stops it.
	var b strings.Builder
	b.WriteString("package big\n\n")
	for i := 0; b.Len() < 6<<20; i++ {
		b.WriteString("func f")
		b.WriteString(strings.Repeat("x", i%7+1))
		b.WriteString("(a, b int) int { if a > b { return a - b }; return b + a*2 }\n")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tree, _, err := p.parseTree(ctx, s, []byte(b.String()))
	if tree != nil {
		tree.Close()
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("parse under a cancelled context: error %v, want context.Canceled", err)
	}

	check := func(ctx context.Context, name string) {
		t.Helper()
		f, err := p.Parse(ctx, "small.go", []byte("package small\n\nfunc "+name+"() {}\n"))
		if err != nil {
			t.Fatalf("Parse after a cancelled parse: %v", err)
		}
		if len(f.Diagnostics) > 0 || len(f.Defs) != 1 || f.Defs[0].Name != name {
			t.Fatalf("Parse after a cancelled parse: defs %+v, diagnostics %+v; want one def %s and no diagnostics (a parse resumed, not reset?)", f.Defs, f.Diagnostics, name)
		}
	}
	check(context.Background(), "Alpha")
	ctx2, cancel2 := context.WithCancel(context.Background())
	check(ctx2, "Beta")
	check(ctx2, "Gamma") // the same context: the same watcher
	cancel2()
	if _, err := p.Parse(ctx2, "small.go", []byte("package small\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse under the cancelled context: %v, want context.Canceled", err)
	}
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	check(ctx3, "Delta") // a new context: the flag the last one raised is down
	p.Close()
	if p.w != nil {
		t.Error("Close left the watching goroutine running")
	}
}
