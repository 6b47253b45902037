package parser

import "github.com/smacker/go-tree-sitter/ocaml"

// OCaml implementations (.ml): let bindings with parameters or a fun body are
// functions, other top-level and module-level lets are variables; types,
// modules, module types (interfaces), classes and methods, val
// specifications; open M imports; (** *) comments above as docs.
func init() {
	register(&langSpec{name: "ocaml", grammar: ocaml.GetLanguage, queries: []string{"ocaml.scm"},
		comments: commentML, sig: sigLine, builtins: set(
			"int string bool unit float char list array option ref exn bytes int32 int64 result seq",
			"print_endline print_string print_int print_newline printf failwith invalid_arg raise ignore fst snd not",
			"string_of_int int_of_string string_of_float float_of_int int_of_float compare min max succ pred incr decr")},
		[]string{".ml"})
}

// .mli interfaces are not registered: the grammar package has only the
// implementation grammar (tree_sitter_ocaml, not ocaml_interface), which
// fails on nearly every top-level val of an interface.
