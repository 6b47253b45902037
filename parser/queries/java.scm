; Java definitions, references and imports. The package is not part of
; qualified names.

(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @def.const

(method_invocation name: (identifier) @ref.call)
(method_invocation object: (_) @qual name: (identifier) @ref.sel)
(object_creation_expression type: (type_identifier) @ref.call)
(object_creation_expression type: (generic_type (type_identifier) @ref.call))
(field_access object: (_) @qual field: (identifier) @ref.sel)
(type_identifier) @ref.type
(scoped_type_identifier (_) @qual . (type_identifier) @ref.type .)

(import_declaration) @import.stmt

; String literals (what config keys, flags and messages are written in).
(string_literal) @literal

; Local names and their declared types (Ref.Type): parameters and locals.
(formal_parameter type: (_) @bind.type name: (identifier) @bind)
(local_variable_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind))
