; C# definitions, references and using directives. A file-scoped namespace
; (namespace X;) is extended to the end of the file in Go.

(namespace_declaration name: (_) @name) @def.module
(file_scoped_namespace_declaration name: (_) @name) @def.module
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(struct_declaration name: (identifier) @name) @def.struct
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(delegate_declaration name: (identifier) @name) @def.type
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(property_declaration name: (identifier) @name) @def.field
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.field

(invocation_expression function: (identifier) @ref.call)
(invocation_expression function: (member_access_expression name: (identifier) @ref.call))
(member_access_expression expression: (_) @qual name: (identifier) @ref.sel)
(object_creation_expression type: (identifier) @ref.call)
(object_creation_expression type: (generic_name (identifier) @ref.call))
(object_creation_expression type: (qualified_name name: (identifier) @ref.call))
(parameter type: (identifier) @ref.type)
(variable_declaration type: (identifier) @ref.type)
(property_declaration type: (identifier) @ref.type)
(method_declaration returns: (identifier) @ref.type)
(base_list (identifier) @ref.type)
(generic_name (identifier) @ref.type)
(type_argument_list (identifier) @ref.type)
(cast_expression type: (identifier) @ref.type)

(using_directive) @import.stmt

; String literals (what config keys, flags and messages are written in).
(string_literal) @literal
(verbatim_string_literal) @literal
(raw_string_literal) @literal
(interpolated_string_expression) @literal
