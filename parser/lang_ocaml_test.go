package parser

func init() { parseCases = append(parseCases, ocamlCases...) }

var ocamlCases = []parseCase{
	{
		name: "ocaml",
		path: "lib/json.ml",
		src: `(** JSON values and their printing. *)
open Printf
open Yojson.Safe

(** A JSON value. *)
type t =
  | Int of int
  | String of string
  | List of t list

(* The indentation step. *)
let indent = 2

(** Renders a value as text. *)
let rec to_string v =
  match v with
  | Int i -> string_of_int i
  | String s -> Buffer_util.quote s
  | List l -> String.concat "," (List.map to_string l)

let pp = fun fmt v -> Format.fprintf fmt "%s" (to_string v)

module Reader = struct
  (** Reads one value. *)
  let read lexbuf = Lexer.token lexbuf
end

module type PRINTER = sig
  val print : t -> unit
end

class printer = object
  method print v = print_endline (to_string v)
end
`,
		doc: "JSON values and their printing.",
		defs: []string{
			"type t 6-9 | type t =",
			"var indent 12-12 | let indent = 2",
			"func to_string 15-19 | let rec to_string v =",
			"func pp 21-21",
			"module Reader 23-26 | module Reader = struct",
			"func Reader.read 25-25 | let read lexbuf = Lexer.token lexbuf",
			"interface PRINTER 28-30 | module type PRINTER = sig",
			"method PRINTER.print 29-29 | val print : t -> unit",
			"class printer 32-34",
			"method printer.print 33-33",
		},
		docs: map[string]string{
			"t":           "A JSON value.",
			"indent":      "The indentation step.",
			"to_string":   "Renders a value as text.",
			"Reader.read": "Reads one value.",
		},
		refs: []string{
			"quote Buffer_util call @to_string",
			"map List call @to_string",
			"token Lexer call @Reader.read",
			"to_string - call @printer.print",
			"t - type @PRINTER.print",
		},
		noRefs:  []string{"string_of_int", "print_endline", "int", "unit"},
		imports: []string{"Printf", "Yojson.Safe"},
	},
	{
		name:  "ocaml-broken",
		path:  "broken.ml",
		src:   "let ok x = x\nlet bad = (1 +\nlet after y = y\n",
		defs:  []string{"func ok 1-1"},
		diags: true,
	},
}
