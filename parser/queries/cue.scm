; CUE definitions, references and imports. Field kinds are settled in Go
; (lang_cue.go: cueDef).

(source_file (field (label [(identifier) (string)] @name)) @def.key)
(source_file (field (label) (value (struct_lit (field (label [(identifier) (string)] @name)) @def.key))))
(source_file (field (label) (value (binary_expression (struct_lit (field (label [(identifier) (string)] @name)) @def.key)))))
(field (label (identifier) @name)) @def.type

(value (identifier) @ref.type)
(binary_expression (identifier) @ref.type)
(unary_expression (identifier) @ref.type)
(arguments (identifier) @ref.type)
(list_lit (identifier) @ref.type)
(selector_expression (identifier) @qual . "." . (identifier) @ref.sel)
(call_expression function: (selector_expression (identifier) @qual . "." . (identifier) @ref.call))
(call_expression function: (identifier) @ref.call)

(import_spec name: (_) @import.alias path: (_) @import.path)
(import_spec !name path: (_) @import.path)

(string) @literal
