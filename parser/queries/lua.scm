; Lua definitions, references and requires.

(function_statement name: (function_name) @name) @def.func
(function_statement name: (function_name (table_colon)) @name) @def.method
(function_statement name: (identifier) @name) @def.func
(variable_declaration name: (variable_declarator) @name value: (function)) @def.func
(program (variable_declaration name: (variable_declarator) @name) @def.var)
(field name: (identifier) @name value: (function)) @def.func

(function_call (identifier) @ref.call . (function_call_paren))
(function_call (identifier) @ref.call . args: (string_argument))
(function_call (identifier) @ref.call . args: (table_argument))
; a.b(), a:b(): anchors skip the anonymous ".".
(function_call (identifier) @qual . (identifier) @ref.call . (function_call_paren))
(function_call (identifier) @qual . (identifier) @ref.call . args: (string_argument))
(function_call (identifier) @qual . (identifier) @ref.call . args: (table_argument))
(function_call (identifier) @qual . (self_call_colon) . (identifier) @ref.call)

(function_call (identifier) @import.fn . (function_call_paren) . (function_arguments . (string) @import.path))
(function_call (identifier) @import.fn . (string_argument) @import.path)

; String literals (what config keys, flags and messages are written in).
(string) @literal
(string_argument) @literal
