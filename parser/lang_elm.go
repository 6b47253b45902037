package parser

import "github.com/smacker/go-tree-sitter/elm"

// Elm: the module, top-level functions, custom types and type aliases,
// ports; imports with their as-names; {-| -} docs, which sit above a
// function's type annotation (a @doc.owner pattern) or below the module
// header.
func init() {
	register(&langSpec{name: "elm", grammar: elm.GetLanguage, queries: []string{"elm.scm"},
		comments: commentElm, sig: sigLine, builtins: set(
			"Int Float String Bool Char List Maybe Result Cmd Sub Never True False Just Nothing Ok Err",
			"identity always not toString negate min max compare fst snd")},
		[]string{".elm"})
}
