; Ruby definitions, references and requires.

(method name: (_) @name) @def.func
(singleton_method name: (_) @name) @def.func
(class name: (_) @name) @def.class
(module name: (_) @name) @def.module
(assignment left: (constant) @name) @def.const

(call method: (identifier) @ref.call)
(call receiver: (_) @qual method: (identifier) @ref.call)
(constant) @ref.type
(scope_resolution scope: (_) @qual name: (constant) @ref.type)

(call method: (identifier) @import.fn arguments: (argument_list . (string (string_content) @import.path)))

; String literals (what config keys, flags and messages are written in).
(string) @literal
