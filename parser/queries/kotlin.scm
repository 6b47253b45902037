; Kotlin definitions, references and imports. The package is not part of
; qualified names (as in Java). An unnamed companion object is no
; definition: its members are qualified by the class, as callers write them.

(class_declaration "class" (type_identifier) @name) @def.class
(class_declaration "interface" (type_identifier) @name) @def.interface
(class_declaration "enum" (type_identifier) @name) @def.enum
(object_declaration (type_identifier) @name) @def.class
(companion_object (type_identifier) @name) @def.class
(type_alias (type_identifier) @name) @def.type
(function_declaration (simple_identifier) @name) @def.func
; An extension function or property: qualified by its receiver type.
(function_declaration (user_type) @receiver . (simple_identifier) @name) @def.method
(function_declaration (nullable_type) @receiver . (simple_identifier) @name) @def.method
(source_file (property_declaration (user_type) @receiver . (variable_declaration (simple_identifier) @name)) @def.field)
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @def.var)
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @def.field)
(enum_class_body (property_declaration (variable_declaration (simple_identifier) @name)) @def.field)
(property_declaration (modifiers (property_modifier)) (variable_declaration (simple_identifier) @name)) @def.const
(class_parameter (binding_pattern_kind) (simple_identifier) @name) @def.field
(enum_entry (simple_identifier) @name) @def.const

(call_expression (simple_identifier) @ref.call)
(call_expression (navigation_expression (_) @qual (navigation_suffix (simple_identifier) @ref.call)))
(navigation_expression (_) @qual (navigation_suffix (simple_identifier) @ref.sel))
(user_type (type_identifier) @ref.type)
(constructor_invocation (user_type (type_identifier) @ref.call))
(callable_reference (simple_identifier) @ref.call)

(import_header) @import.stmt

; String literals (what config keys, flags and messages are written in).
(string_literal) @literal
