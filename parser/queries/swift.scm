; Swift definitions, references and imports. One node type,
; class_declaration, holds classes, structs, enums, actors and extensions,
; told apart by their keyword. An extension is a @scope: it qualifies its
; members by the extended type but is not itself a definition.

(class_declaration "class" name: (type_identifier) @name) @def.class
(class_declaration "actor" name: (type_identifier) @name) @def.class
(class_declaration "struct" name: (type_identifier) @name) @def.struct
(class_declaration "enum" name: (type_identifier) @name) @def.enum
(class_declaration "extension" name: (_) @name) @scope
(protocol_declaration name: (type_identifier) @name) @def.interface
(typealias_declaration name: (type_identifier) @name) @def.type
(function_declaration name: (simple_identifier) @name) @def.func
(protocol_function_declaration name: (simple_identifier) @name) @def.method
(init_declaration "init" @name) @def.method
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @def.field)
(enum_class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @def.field)
(protocol_body (protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @def.field)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @def.var)
(source_file (property_declaration (value_binding_pattern "let") name: (pattern bound_identifier: (simple_identifier) @name)) @def.const)
(enum_entry name: (simple_identifier) @name) @def.const

(call_expression (simple_identifier) @ref.call)
(call_expression (navigation_expression target: (_) @qual suffix: (navigation_suffix suffix: (simple_identifier) @ref.call)))
(navigation_expression target: (_) @qual suffix: (navigation_suffix suffix: (simple_identifier) @ref.sel))
(user_type (type_identifier) @ref.type)

(import_declaration (identifier) @import.path)

; String literals (what config keys, flags and messages are written in).
(line_string_literal) @literal
(multi_line_string_literal) @literal
