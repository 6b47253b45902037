; C++ definitions, references and includes. Out-of-line definitions
; (ns::Foo::bar) are split into qualifier and name in Go.

(namespace_definition name: (_) @name) @def.module
(class_specifier name: (_) @name body: (_)) @def.class
(struct_specifier name: (_) @name body: (_)) @def.struct
(union_specifier name: (_) @name body: (_)) @def.struct
(enum_specifier name: (_) @name body: (_)) @def.enum
(function_definition declarator: (function_declarator declarator: (_) @name)) @def.func
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @def.func
(function_definition declarator: (reference_declarator (function_declarator declarator: (_) @name))) @def.func
(declaration declarator: (function_declarator declarator: (_) @name)) @def.func
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @def.func
(field_declaration declarator: (function_declarator declarator: (_) @name)) @def.method
(type_definition declarator: (type_identifier) @name) @def.type
(alias_declaration name: (type_identifier) @name) @def.type
(preproc_function_def name: (identifier) @name) @def.macro
(preproc_def name: (identifier) @name value: (_)) @def.macro
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @def.var)
(translation_unit (declaration declarator: (identifier) @name) @def.var)
(namespace_definition body: (declaration_list (declaration declarator: (init_declarator declarator: (identifier) @name)) @def.var))
(field_declaration declarator: (field_identifier) @name) @def.field

(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression field: (field_identifier) @ref.call))
(call_expression function: (qualified_identifier scope: (_) @qual name: (identifier) @ref.call))
(call_expression function: (template_function name: (identifier) @ref.call))
(new_expression type: (type_identifier) @ref.call)
(field_expression argument: (_) @qual field: (field_identifier) @ref.sel)
(type_identifier) @ref.type
(qualified_identifier scope: (namespace_identifier) @qual name: (type_identifier) @ref.type)

(preproc_include path: (_) @import.path)
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @def.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @def.field

; String literals (what config keys, flags and messages are written in).
(string_literal) @literal
(raw_string_literal) @literal
