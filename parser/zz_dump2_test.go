package parser

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestZZFixtures(t *testing.T) {
	if os.Getenv("FIXDUMP") == "" {
		t.Skip()
	}
	p := NewParser()
	defer p.Close()
	filepath.WalkDir(os.Getenv("FIXDUMP"), func(path string, d fs.DirEntry, err error) error {
		if d.IsDir() || Detect(path) == "" {
			return nil
		}
		src, _ := os.ReadFile(path)
		f, err := p.Parse(context.Background(), path, src)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("== %s [%s] doc=%q defs=%d refs=%d imports=%d diags=%v\n", path, f.Language, f.Doc, len(f.Defs), len(f.Refs), len(f.Imports), f.Diagnostics)
		for _, d := range f.Defs {
			fmt.Printf("   %s %s p=%d %d-%d %q doc=%q\n", d.Kind, d.Qualified, d.Parent, d.StartLine, d.EndLine, d.Signature, truncate(d.Doc, 40))
		}
		for _, im := range f.Imports {
			fmt.Printf("   I %q %q\n", im.Path, im.Alias)
		}
		return nil
	})
}
