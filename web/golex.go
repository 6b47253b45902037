package web

import (
	"go/scanner"
	"go/token"

	"github.com/alecthomas/chroma/v2"
)

// goTokens splits Go source into chroma tokens with the standard library's
// scanner, for chroma's HTML formatter. chroma's own Go lexer (regular
// expressions) took 80% of a file page's time on moby (about 25 ms for a
// 200-line window on a loaded machine); the scanner takes a small fraction
// of that. The classes follow chroma's Go lexer: declarations ("kd"),
// namespaces ("kn"), constants ("kc"), built-in types ("kt"), calls
// ("nf"), built-ins ("nb"). A window that starts inside a block comment or
// a raw string is lexed as best the scanner can; errors are ignored.
func goTokens(src string) []chroma.Token {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, scanner.ScanComments)
	var out []chroma.Token
	emit := func(t chroma.TokenType, v string) {
		if v == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Type == t {
			out[n-1].Value += v
			return
		}
		out = append(out, chroma.Token{Type: t, Value: v})
	}
	type tok struct {
		off int
		t   token.Token
		lit string
	}
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		off := file.Offset(pos)
		if t == token.SEMICOLON && lit == "\n" {
			continue // an inserted semicolon: the newline is text
		}
		toks = append(toks, tok{off, t, lit})
	}
	at := 0
	for i, k := range toks {
		if k.off < at || k.off > len(src) {
			continue
		}
		emit(chroma.Text, src[at:k.off])
		end := k.off + len(k.lit)
		if k.lit == "" || k.t.IsOperator() {
			end = k.off + len(k.t.String())
		}
		if k.t == token.COMMENT {
			end = k.off + len(k.lit)
			// The scanner strips \r from comments; take the source's bytes.
			if end > len(src) {
				end = len(src)
			}
		}
		end = min(end, len(src))
		v := src[k.off:end]
		next := token.ILLEGAL
		if i+1 < len(toks) {
			next = toks[i+1].t
		}
		emit(goClass(k.t, k.lit, next), v)
		at = end
	}
	emit(chroma.Text, src[min(at, len(src)):])
	return out
}

// goClass is the chroma token type of one Go token (next is the token
// after it, for calls).
func goClass(t token.Token, lit string, next token.Token) chroma.TokenType {
	switch {
	case t == token.COMMENT:
		if len(lit) > 1 && lit[1] == '*' {
			return chroma.CommentMultiline
		}
		return chroma.CommentSingle
	case t == token.PACKAGE || t == token.IMPORT:
		return chroma.KeywordNamespace
	case t == token.FUNC || t == token.TYPE || t == token.VAR || t == token.CONST || t == token.STRUCT ||
		t == token.INTERFACE || t == token.MAP || t == token.CHAN:
		return chroma.KeywordDeclaration
	case t.IsKeyword():
		return chroma.Keyword
	case t == token.STRING:
		return chroma.LiteralString
	case t == token.CHAR:
		return chroma.LiteralStringChar
	case t == token.INT:
		return chroma.LiteralNumberInteger
	case t == token.FLOAT || t == token.IMAG:
		return chroma.LiteralNumberFloat
	case t == token.IDENT:
		switch lit {
		case "true", "false", "iota", "nil":
			return chroma.KeywordConstant
		case "bool", "byte", "complex128", "complex64", "error", "float32", "float64", "int", "int16", "int32", "int64", "int8",
			"rune", "string", "uint", "uint16", "uint32", "uint64", "uint8", "uintptr", "any", "comparable":
			return chroma.KeywordType
		case "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max", "min", "new",
			"panic", "print", "println", "real", "recover":
			if next == token.LPAREN {
				return chroma.NameBuiltin
			}
		}
		if next == token.LPAREN {
			return chroma.NameFunction
		}
		return chroma.NameOther
	case t.IsOperator():
		switch t {
		case token.LPAREN, token.RPAREN, token.LBRACK, token.RBRACK, token.LBRACE, token.RBRACE, token.COMMA, token.SEMICOLON, token.PERIOD, token.COLON:
			return chroma.Punctuation
		}
		return chroma.Operator
	}
	return chroma.Text
}
