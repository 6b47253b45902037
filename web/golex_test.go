package web

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// TestGoTokens checks that the Go tokens give back the source byte for
// byte and class what chroma's Go lexer classes.
func TestGoTokens(t *testing.T) {
	src := "package p\n\nimport \"fmt\"\n\n// F prints.\nfunc F(x int) error {\n\t/* block */ s := `raw\nstring`\n\tfmt.Println(len(s), x+1, 'c', 2.5, nil)\n\treturn nil\n}\n"
	for _, cut := range []int{0, 40, 70} { // whole, and windows that start mid-way
		text := src[cut:]
		var b strings.Builder
		for _, tk := range goTokens(text) {
			b.WriteString(tk.Value)
		}
		if b.String() != text {
			t.Errorf("from byte %d: tokens give back\n%q\nwant\n%q", cut, b.String(), text)
		}
	}
	want := map[string]chroma.TokenType{"package": chroma.KeywordNamespace, "func": chroma.KeywordDeclaration, "return": chroma.Keyword,
		`"fmt"`: chroma.LiteralString, "// F prints.": chroma.CommentSingle, "/* block */": chroma.CommentMultiline,
		"Println": chroma.NameFunction, "len": chroma.NameBuiltin, "int": chroma.KeywordType, "nil": chroma.KeywordConstant,
		"2.5": chroma.LiteralNumberFloat, "'c'": chroma.LiteralStringChar, "`raw\nstring`": chroma.LiteralString}
	got := map[string]chroma.TokenType{}
	for _, tk := range goTokens(src) {
		got[tk.Value] = tk.Type
	}
	for v, tt := range want {
		if got[v] != tt {
			t.Errorf("%q: %v, want %v", v, got[v], tt)
		}
	}
}
