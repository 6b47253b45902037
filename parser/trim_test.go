package parser

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// rssAnon is the process's resident anonymous memory, in bytes.
func rssAnon(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "RssAnon:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no RssAnon in /proc/self/status")
	return 0
}

// TestReleaseMemoryReturnsTheTreesHeap parses a large file, whose tree
// tree-sitter frees into the C heap when it is closed, and checks that
// ReleaseMemory hands that memory back: with glibc it did nothing from
// the start, its test of __GLIBC__ coming before any header defined it.
func TestReleaseMemoryReturnsTheTreesHeap(t *testing.T) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil || !strings.Contains(string(maps), "/libc.so.6") {
		t.Skip("not linked with glibc: ReleaseMemory has nothing to trim")
	}
	// One thread: the tree's memory lies in its arena.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var b strings.Builder
	for i := range 8000 {
		fmt.Fprintf(&b, "key%d:\n  name: value %d\n  list: [a, b, %d]\n", i, i, i)
	}
	p := NewParser()
	defer p.Close()
	if _, err := p.Parse(context.Background(), "big.yaml", []byte(b.String())); err != nil {
		t.Fatal(err)
	}
	before := rssAnon(t)
	ReleaseMemory()
	after := rssAnon(t)
	t.Logf("resident anonymous memory %d → %d MB", before>>20, after>>20)
	if before-after < 4<<20 {
		t.Fatalf("ReleaseMemory returned %d KB of the tree's heap (resident %d → %d MB), want 4 MB or more", (before-after)>>10, before>>20, after>>20)
	}
}
