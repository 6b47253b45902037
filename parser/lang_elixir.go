package parser

import "github.com/smacker/go-tree-sitter/elixir"

// Elixir: everything is a call, so the queries capture the call's word as
// @keyword and keywords says which words define what: defmodule (module),
// def/defp (func), defmacro (macro), defstruct (struct, named after the
// keyword inside its module); alias/import/use/require are imports;
// @moduledoc and @doc strings are docs.
func init() {
	register(&langSpec{name: "elixir", grammar: elixir.GetLanguage, queries: []string{"elixir.scm"},
		comments: commentHash, sig: sigLine,
		keywords: map[string]DefKind{
			"defmodule": KindModule, "defprotocol": KindInterface, "defimpl": KindModule,
			"def": KindFunc, "defp": KindFunc, "defdelegate": KindFunc, "defn": KindFunc, "defnp": KindFunc,
			"defmacro": KindMacro, "defmacrop": KindMacro, "defguard": KindMacro, "defguardp": KindMacro,
			"defstruct": KindStruct, "defexception": KindStruct,
			"alias": KindUnknown, "import": KindUnknown, "use": KindUnknown, "require": KindUnknown,
			"doc": KindUnknown, "moduledoc": KindUnknown,
		},
		builtins: set(
			"def defp defmacro defmacrop defmodule defstruct defexception defprotocol defimpl defdelegate defguard defguardp",
			"alias import use require quote unquote unquote_splicing if unless case cond with for fn raise reraise throw try",
			"receive send spawn self super is_atom is_binary is_bitstring is_boolean is_nil is_list is_map is_integer is_float",
			"is_number is_function is_tuple is_pid elem put_elem length hd tl to_string inspect apply map_size byte_size",
			"tuple_size not and or in when binary_part div rem abs round trunc max min",
			"doc moduledoc typedoc spec impl type typep opaque callback macrocallback behaviour derive")},
		[]string{".ex", ".exs"})
}
