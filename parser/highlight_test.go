package parser

import (
	"context"
	"testing"
)

// TestHighlight checks the classes Highlight gives the tokens of a few
// languages, that spans come in order without overlap, and that broken
// syntax and a language without a grammar do not fail.
func TestHighlight(t *testing.T) {
	p := NewParser()
	defer p.Close()
	cases := []struct {
		path, src string
		want      map[string]SpanClass
	}{
		{"a.py", "def f(x):\n    # note\n    return \"s\" + 42\n",
			map[string]SpanClass{"def": SpanKeyword, "return": SpanKeyword, "# note": SpanComment, `"s"`: SpanString, "42": SpanNumber}},
		{"a.ts", "// c\nexport function f(): number { return 7 + `t` }\n",
			map[string]SpanClass{"// c": SpanComment, "export": SpanKeyword, "function": SpanKeyword, "7": SpanNumber, "`t`": SpanString}},
		{"a.rs", "fn main() { let s = \"x\"; /* b */ }\n",
			map[string]SpanClass{"fn": SpanKeyword, "let": SpanKeyword, `"x"`: SpanString, "/* b */": SpanComment}},
		// A scalar continued at its key's column: highlighted past it
		// (the grammar reads a rewritten source with the same offsets).
		{"api/a.yaml", "a:\n  b: \"w\n  y z\"\n  c: qq\n# done\n", map[string]SpanClass{"qq": SpanString, "# done": SpanComment}},
		{"broken.py", "def f(:\n  return 'q'\n", map[string]SpanClass{"'q'": SpanString}},
	}
	for _, c := range cases {
		spans := p.Highlight(context.Background(), c.path, []byte(c.src))
		got := map[string]SpanClass{}
		for i, s := range spans {
			if s.Start >= s.End || s.End > len(c.src) || i > 0 && s.Start < spans[i-1].End {
				t.Fatalf("%s: span %d %+v out of order or bounds", c.path, i, s)
			}
			got[c.src[s.Start:s.End]] = s.Class
		}
		for text, class := range c.want {
			if got[text] != class {
				t.Errorf("%s: %q is class %d, want %d (spans: %v)", c.path, text, got[text], class, got)
			}
		}
		if got["f"] != 0 || got["x"] != 0 {
			t.Errorf("%s: identifiers highlighted: %v", c.path, got)
		}
	}
	if s := p.Highlight(context.Background(), "notes.txt", []byte("plain # text")); s != nil {
		t.Errorf("a file without a grammar: %v, want nil", s)
	}
}
