; Groovy definitions, references and imports. A class body and a method
; body are both closures: fields are declarations directly in a class's
; closure, script variables declarations at the top of the file.

(class_definition "interface" name: (identifier) @name) @def.interface
(class_definition "class" name: (identifier) @name) @def.class
(function_definition function: (identifier) @name) @def.func
(function_declaration function: (identifier) @name) @def.func
(class_definition body: (closure (declaration name: (identifier) @name) @def.field))
(source_file (declaration name: (identifier) @name) @def.var)

(function_call function: (identifier) @ref.call)
(function_call function: (dotted_identifier (_) @qual . (identifier) @ref.call .))
(juxt_function_call function: (identifier) @ref.call)
(juxt_function_call function: (dotted_identifier (_) @qual . (identifier) @ref.call .))
(dotted_identifier (_) @qual . (identifier) @ref.sel)
(declaration type: (identifier) @ref.type)
(parameter type: (identifier) @ref.type)
(function_definition type: (identifier) @ref.type)
(class_definition superclass: (identifier) @ref.type)

(groovy_import) @import.stmt

; String literals (what config keys, flags and messages are written in).
(string) @literal
