; C definitions, references and includes.

(function_definition declarator: (function_declarator declarator: (_) @name)) @def.func
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @def.func
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))) @def.func
(declaration declarator: (function_declarator declarator: (identifier) @name)) @def.func
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @def.func
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.struct
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(type_definition declarator: (type_identifier) @name) @def.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @def.type
(preproc_function_def name: (identifier) @name) @def.macro
(preproc_def name: (identifier) @name value: (_)) @def.macro
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @def.var)
(translation_unit (declaration declarator: (identifier) @name) @def.var)
(translation_unit (declaration declarator: (array_declarator declarator: (identifier) @name)) @def.var)
(preproc_ifdef (declaration declarator: (identifier) @name) @def.var)
(field_declaration declarator: (field_identifier) @name) @def.field

(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression field: (field_identifier) @ref.call))
(field_expression argument: (_) @qual field: (field_identifier) @ref.sel)
(type_identifier) @ref.type

(preproc_include path: (_) @import.path)
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @def.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @def.field

; String literals (what config keys, flags and messages are written in).
(string_literal) @literal
