package parser

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

// TestConcurrentParsesAgree: parsers on several goroutines (a build's
// workers) give every fixture file the facts a lone parser gives it. A
// grammar whose external scanner keeps state in C globals fails this
// unless its langSpec is serial (tree-sitter-lua did: 56 of 1,200 parses
// of one file differed).
func TestConcurrentParsesAgree(t *testing.T) {
	ctx := context.Background()
	var files []string
	filepath.WalkDir("../fixtures/languages", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && lexicalFor(p) == nil {
			if s := specs[Detect(p)]; s != nil && s.grammar != nil {
				files = append(files, p)
			}
		}
		return nil
	})
	if len(files) < 30 {
		t.Fatalf("only %d fixture files with a grammar", len(files))
	}
	src := map[string][]byte{}
	want := map[string]*Facts{}
	lone := NewParser()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src[f] = b
		if want[f], err = lone.Parse(ctx, f, b); err != nil {
			t.Fatal(err)
		}
	}
	lone.Close()
	// Parses of one language at once: a scanner's globals are per grammar.
	byLang := map[string][]string{}
	for _, f := range files {
		byLang[Detect(f)] = append(byLang[Detect(f)], f)
	}
	rounds := 60
	if testing.Short() {
		rounds = 10
	}
	var mu sync.Mutex
	bad := map[string]int{}
	for _, fs := range byLang {
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := NewParser()
				defer p.Close()
				for r := range rounds {
					for i := range fs {
						f := fs[(i+w+r)%len(fs)]
						got, err := p.Parse(ctx, f, src[f])
						if err != nil || !reflect.DeepEqual(got, want[f]) {
							mu.Lock()
							bad[f]++
							mu.Unlock()
						}
					}
				}
			}()
		}
		wg.Wait()
	}
	for f, n := range bad {
		t.Errorf("%s: %d of %d concurrent parses differ from a lone parser's", f, n, 4*rounds)
	}
}
