package parser

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestParseIndependentOfPreviousFile: a Parser reused across files (each
// build worker keeps one) gives every file the facts a fresh Parser gives
// it, whatever it parsed before — grammar state (an external scanner's)
// must not leak from one file into the next. Lua's did: the same
// loader.lua parsed into different trees now and then.
func TestParseIndependentOfPreviousFile(t *testing.T) {
	ctx := context.Background()
	var files []string
	for _, dir := range []string{"../fixtures/languages/lua", "../fixtures/polyglot"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && Detect(p) != "" && Detect(p) != "text" {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 10 {
		t.Fatalf("only %d fixture files", len(files))
	}
	src := map[string][]byte{}
	fresh := map[string]*Facts{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src[f] = b
		p := NewParser()
		if fresh[f], err = p.Parse(ctx, f, b); err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	p := NewParser()
	defer p.Close()
	for round := range 3 {
		for i := range files {
			// Every file after every other, in a few orders.
			f := files[(i*(round+1)+round)%len(files)]
			got, err := p.Parse(ctx, f, src[f])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, fresh[f]) {
				t.Fatalf("%s parsed after other files differs from a fresh parse", f)
			}
		}
	}
}
