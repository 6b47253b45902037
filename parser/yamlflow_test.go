package parser

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestJoinYAMLFlow: a flow node continued over lines no deeper than its key
// is put on one line, its breaks moved after it; everything else is left
// alone, and the length and the line breaks' count never change.
func TestJoinYAMLFlow(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"quoted scalar continued at its key's indentation",
			"a:\n  description: \"A list for MLS\n  systems.\"\n  type: array\n",
			"a:\n  description: \"A list for MLS  systems.\"\n\n  type: array\n"},
		{"JSON-style example closed under its key",
			"x:\n  example: {\n    \"80/tcp\": {},\n    \"443/tcp\": {}\n  }\n  y: 1\n",
			"x:\n  example: {    \"80/tcp\": {},    \"443/tcp\": {}  }\n\n\n\n  y: 1\n"},
		{"single-quoted, with a doubled quote, and a comment after it",
			"k: 'it''s\nthere' # note\nz: 2\n",
			"k: 'it''sthere'\n # note\nz: 2\n"},
		{"sequence entry", "- [a,\n- b]\n", "- [a,- b]\n\n"},
		{"CRLF line breaks", "a:\r\n  d: \"x\r\n  y\"\r\n", "a:\r\n  d: \"x  y\"\r\n\r\n"},
		{"continued deeper than its key: left", "a:\n  d: \"x\n    y\"\n", ""},
		{"a document that is one flow node: left", "{\n\"a\": 1\n}\n", ""},
		{"quotes in a plain scalar and a comment: left", "a: don't \"x\n# \"y\nb: 1\n", ""},
		{"block scalar: left", "a: |\n  \"not\n  closed\nb: 1\n", ""},
		{"block scalar of an entry's key: left", "- k: >\n    [x\n  y: 1\n", ""},
		{"a node never closed ends the scan", "a: \"x\nb: 1\n", ""},
	}
	for _, tc := range cases {
		got := string(joinYAMLFlow([]byte(tc.in)))
		want := tc.want
		if want == "" {
			want = tc.in
		}
		if got != want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, want)
		}
		if len(got) != len(tc.in) || strings.Count(got, "\n") != strings.Count(tc.in, "\n") {
			t.Errorf("%s: length or line count changed: %q", tc.name, got)
		}
	}
}

// TestYAMLFlowContinuedParses: the documents tree-sitter-yaml gave up on
// (moby's API documents) parse whole, with keys after the flow nodes found
// on their own lines.
func TestYAMLFlowContinuedParses(t *testing.T) {
	src := "definitions:\n  Mount:\n    type: \"object\"\n    description: \"A list of values for MLS\n    systems, such as SELinux.\"\n" +
		"  Port:\n    example: {\n      \"80/tcp\": {},\n      \"443/tcp\": {}\n    }\n  Volume:\n    type: \"object\"\n"
	p := NewParser()
	defer p.Close()
	f, err := p.Parse(context.Background(), "api.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Diagnostics) > 0 {
		t.Errorf("diagnostics %+v", f.Diagnostics)
	}
	lines := map[string]int{}
	for _, d := range f.Defs {
		lines[d.Qualified] = d.StartLine
	}
	for q, want := range map[string]int{"definitions.Mount": 2, "definitions.Port": 6, "definitions.Volume": 11} {
		if lines[q] != want {
			t.Errorf("%s at line %d, want %d (defs %v)", q, lines[q], want, lines)
		}
	}
}

// FuzzJoinYAMLFlow: any input keeps its length and its line breaks.
func FuzzJoinYAMLFlow(f *testing.F) {
	f.Add([]byte("a:\n  d: \"x\n  y\"\n"))
	f.Add([]byte("- {a: [1,\n2], 'b': \"c\\\"\n\"}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got := joinYAMLFlow(b)
		if len(got) != len(b) || bytes.Count(got, []byte("\n")) != bytes.Count(b, []byte("\n")) {
			t.Fatalf("%q → %q", b, got)
		}
	})
}
