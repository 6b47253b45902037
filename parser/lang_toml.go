package parser

import "github.com/smacker/go-tree-sitter/toml"

// TOML: tables ([tool.pytest], [[bin]]) and their keys, qualified by the
// table (project.name), top-level keys, comments above as docs, string
// values as literals.
func init() {
	register(&langSpec{name: "toml", grammar: toml.GetLanguage, queries: []string{"toml.scm"},
		comments: commentHash, sig: sigWholeLine, finish: finishData}, []string{".toml"})
}
