package parser

import "bytes"

// Comment styles beyond the C-like and hash ones of languages.go, numbered
// apart so that styles added elsewhere do not collide with them.
const (
	commentLua commentStyle = 16 + iota // Lua: --, ---, --[[ ]]
	commentElm                          // Elm, Haskell: --, {- -}, {-| -}
	commentML                           // OCaml: (* *), (** *); no line comments
)

// block returns the style's block comment delimiters, or "" when it has
// none.
func (c commentStyle) block() (open, close string) {
	switch c {
	case commentHash:
		return "", ""
	case commentLua:
		return "--[[", "]]"
	case commentElm:
		return "{-", "-}"
	case commentML:
		return "(*", "*)"
	}
	return "/*", "*/"
}

// dashLine reports whether the trimmed line is a "--" line comment of a
// dash style (Lua, Elm) and returns its text without the marker ("---"
// counts as one marker: LuaLS annotations).
func dashLine(t []byte, style commentStyle) ([]byte, bool) {
	if style != commentLua && style != commentElm || !bytes.HasPrefix(t, []byte("--")) {
		return nil, false
	}
	if style == commentLua && bytes.HasPrefix(t, []byte("--[[")) {
		return nil, false
	}
	t = t[2:]
	if len(t) > 0 && t[0] == '-' {
		t = t[1:]
	}
	return t, true
}
