package parser

import (
	"context"
	"strings"
	"testing"
)

// TestDiagnoseInsideRootError: where the grammar gives up on the whole
// file (its root is one ERROR node), the diagnostics say where inside it
// the parse went wrong, not the file's first line. The script is the
// pattern of moby's contrib/check-config.sh, which tree-sitter-bash cannot
// parse (a ';' inside ${var:+...}); its root was reported at 1:1.
func TestDiagnoseInsideRootError(t *testing.T) {
	var b strings.Builder
	b.WriteString("#!/bin/sh\nset -e\n\n")
	for i := range 12 {
		b.WriteString("f" + string(rune('a'+i)) + "() {\n\tif [ \"$code\" ]; then\n\t\tcodes=\"${codes:+$codes;}$code\"\n\tfi\n}\n\n")
	}
	b.WriteString("echo done\n")
	p := NewParser()
	defer p.Close()
	f, err := p.Parse(context.Background(), "check.sh", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Diagnostics) == 0 {
		t.Skip("the bash grammar parses this script now: nothing to locate")
	}
	for _, d := range f.Diagnostics {
		if d.Line == 1 && d.Column == 1 {
			t.Errorf("a diagnostic at 1:1 (%s): the errors inside the root's ERROR node are where the parse went wrong; all: %+v", d.Message, f.Diagnostics)
		}
	}
	if d := f.Diagnostics[0]; d.Line < 4 {
		t.Errorf("first diagnostic at %d:%d, before the first function's body (line 6)", d.Line, d.Column)
	}
}

// TestDiagnoseGrammarGaveUp: a file the grammar stops parsing before its
// end (tree-sitter-yaml on a quoted scalar continued at its key's
// indentation, as moby's API documents have) says first where it stopped
// and that the rest is not indexed.
func TestDiagnoseGrammarGaveUp(t *testing.T) {
	var b strings.Builder
	b.WriteString("a:\n  b:\n    type: \"array\"\n    description: \"A list of values for MLS\n    systems, such as SELinux.\"\n")
	for i := range 40 {
		b.WriteString("key" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ":\n  type: string\n")
	}
	src := b.String()
	p := NewParser()
	defer p.Close()
	f, err := p.Parse(context.Background(), "api.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Diagnostics) == 0 {
		t.Skip("the yaml grammar parses this document now")
	}
	d := f.Diagnostics[0]
	if !strings.Contains(d.Message, "gave up") || !strings.Contains(d.Message, "to line 85") || d.Line > 5 {
		t.Errorf("first diagnostic %d:%d %q, want where the grammar gave up (line 4 or 5) and that lines to 85 are not indexed", d.Line, d.Column, d.Message)
	}
}
