; Elixir definitions, references, imports and docs. Every pattern with a
; @keyword is kept only for the words (and kinds) of langSpec.keywords.

(call target: (identifier) @keyword (arguments . (alias) @name)) @def.module
(call target: (identifier) @keyword (arguments . (alias) @name)) @def.interface
(call target: (identifier) @keyword (arguments . (call target: (identifier) @name))) @def.func
(call target: (identifier) @keyword (arguments . (binary_operator left: (call target: (identifier) @name)))) @def.func
(call target: (identifier) @keyword (arguments . (identifier) @name)) @def.func
(call target: (identifier) @keyword (arguments . (binary_operator left: (identifier) @name))) @def.func
(call target: (identifier) @keyword (arguments . (call target: (identifier) @name))) @def.macro
(call target: (identifier) @keyword (arguments . (binary_operator left: (call target: (identifier) @name)))) @def.macro
(call target: (identifier) @keyword (arguments . (identifier) @name)) @def.macro
(call target: (identifier) @keyword) @def.struct

; @doc "..." before a def, with up to two attributes (@spec, @impl) between.
(do_block (unary_operator operand: (call target: (identifier) @keyword (arguments . [(string) (sigil)] @doc))) . (call) @doc.owner)
(do_block (unary_operator operand: (call target: (identifier) @keyword (arguments . [(string) (sigil)] @doc))) . (unary_operator) . (call) @doc.owner)
(do_block (unary_operator operand: (call target: (identifier) @keyword (arguments . [(string) (sigil)] @doc))) . (unary_operator) . (unary_operator) . (call) @doc.owner)
(call (do_block . (unary_operator operand: (call target: (identifier) @keyword (arguments . [(string) (sigil)] @doc))))) @doc.owner

(call target: (identifier) @ref.call)
(call target: (dot left: (alias) @qual right: (identifier) @ref.call))
(call target: (dot left: (identifier) @qual right: (identifier) @ref.call))
(struct (alias) @ref.type)

(call target: (identifier) @keyword (arguments . (alias) @import.path))
(call target: (identifier) @keyword (arguments . (dot left: (alias) right: (tuple)) @import.path))

; String literals (what config keys, flags and messages are written in).
(string) @literal
