package parser

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	path := os.Getenv("DUMP")
	if path == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(path)
	p := NewParser()
	defer p.Close()
	f, err := p.Parse(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("DOC %q\n", f.Doc)
	for i, d := range f.Defs {
		fmt.Printf("D%d %s %s q=%s p=%d %d-%d sig=%q doc=%q\n", i, d.Kind, d.Name, d.Qualified, d.Parent, d.StartLine, d.EndLine, d.Signature, d.Doc)
	}
	for _, r := range f.Refs {
		fmt.Printf("R %d %q q=%q L%d enc=%d\n", r.Kind, r.Name, r.Qualifier, r.Line, r.Enclosing)
	}
	for _, im := range f.Imports {
		fmt.Printf("I %q as=%q L%d\n", im.Path, im.Alias, im.Line)
	}
	for _, d := range f.Diagnostics {
		fmt.Printf("E %d:%d %s\n", d.Line, d.Column, d.Message)
	}
}
