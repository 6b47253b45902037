package parser

import (
	"bytes"
	"sync"

	"github.com/smacker/go-tree-sitter/lua"
)

// Lua (tjdevries/tree-sitter-lua): functions named M.f, M:m (a method) or
// local f; top-level locals; require("x") and require "x" imports; ---
// LuaLS comments as docs. The grammar puts a function's --- comments and
// the blanks before a statement inside its node; skipLead moves the start
// back to the code.
func init() {
	register(&langSpec{name: "lua", grammar: lua.GetLanguage, queries: []string{"lua.scm"}, serial: new(sync.Mutex),
		comments: commentLua, sig: sigLine, nameSeps: ":", prepare: maskLuaLS, builtins: set(
			"print pairs ipairs type tostring tonumber error assert pcall xpcall select setmetatable getmetatable",
			"rawget rawset rawequal rawlen unpack next require loadstring load dofile collectgarbage")},
		[]string{".lua"})
}

// maskLuaLS returns a copy of src in which LuaLS annotations are plain
// comments: "---@" at the start of a line becomes "-- @" and "--[[@"
// becomes "--[[ ". tree-sitter-lua parses ---@ lines as its own annotation
// syntax and loses whole functions when one does not fit it (---@field
// x? T, ---@alias with a table type, an inline --[[@as T]]). The doc text
// is the same after the comment marker is stripped.
func maskLuaLS(src []byte) []byte {
	if !bytes.Contains(src, []byte("-@")) && !bytes.Contains(src, []byte("[[@")) {
		return src
	}
	return rewriteBytes(src, func(out []byte, i int, lineStart bool) {
		switch {
		case lineStart && out[i] == '-' && bytes.HasPrefix(out[i:], []byte("---@")):
			out[i+2] = ' '
		case out[i] == '-' && bytes.HasPrefix(out[i:], []byte("--[[@")):
			out[i+4] = ' '
		}
	})
}
