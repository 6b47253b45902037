; PHP definitions, references and imports. A namespace without braces
; (namespace A\B;) is extended to the next namespace or the end of the file.

(namespace_definition name: (namespace_name) @name) @def.module
(class_declaration name: (name) @name) @def.class
(interface_declaration name: (name) @name) @def.interface
(trait_declaration name: (name) @name) @def.trait
(enum_declaration name: (name) @name) @def.enum
(function_definition name: (name) @name) @def.func
(method_declaration name: (name) @name) @def.method
(const_declaration (const_element (name) @name)) @def.const
(property_declaration (property_element (variable_name (name) @name))) @def.field

(function_call_expression function: (name) @ref.call)
(function_call_expression function: (qualified_name (name) @ref.call .))
(member_call_expression object: (_) @qual name: (name) @ref.call)
(nullsafe_member_call_expression object: (_) @qual name: (name) @ref.call)
(scoped_call_expression scope: (_) @qual name: (name) @ref.call)
(member_access_expression object: (_) @qual name: (name) @ref.sel)
(object_creation_expression (name) @ref.call)
(object_creation_expression (qualified_name (name) @ref.call .))
(named_type (name) @ref.type)
(named_type (qualified_name (name) @ref.type .))
(base_clause (name) @ref.type)
(class_interface_clause (name) @ref.type)

(namespace_use_clause) @import.stmt
(require_expression) @import.stmt
(require_once_expression) @import.stmt
(include_expression) @import.stmt
(include_once_expression) @import.stmt

; String literals (what config keys, flags and messages are written in).
(string) @literal
(encapsed_string) @literal
