; TypeScript definitions, references and imports (also the base of tsx.scm).

(function_declaration name: (identifier) @name) @def.func
(generator_function_declaration name: (identifier) @name) @def.func
(function_signature name: (identifier) @name) @def.func
(class_declaration name: (type_identifier) @name) @def.class
(abstract_class_declaration name: (type_identifier) @name) @def.class
(interface_declaration name: (type_identifier) @name) @def.interface
(type_alias_declaration name: (type_identifier) @name) @def.type
(enum_declaration name: (identifier) @name) @def.enum
(internal_module name: (_) @name) @def.module
(module name: (_) @name) @def.module
(class_body (method_definition name: (_) @name) @def.method)
(class_body (method_signature name: (_) @name) @def.method)
(class_body (abstract_method_signature name: (_) @name) @def.method)
(class_body (public_field_definition name: (_) @name) @def.field)
(interface_body (method_signature name: (_) @name) @def.method)
(interface_body (property_signature name: (_) @name) @def.field)
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) @def.func
(program (lexical_declaration "const" (variable_declarator name: (identifier) @name) @def.const))
(program (lexical_declaration "let" (variable_declarator name: (identifier) @name) @def.var))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def.var))
(program (export_statement (lexical_declaration "const" (variable_declarator name: (identifier) @name) @def.const)))
(program (export_statement (lexical_declaration "let" (variable_declarator name: (identifier) @name) @def.var)))

(call_expression function: (identifier) @ref.call)
(call_expression function: (member_expression property: (property_identifier) @ref.call))
(new_expression constructor: (identifier) @ref.call)
(new_expression constructor: (member_expression property: (property_identifier) @ref.call))
(member_expression object: (_) @qual property: (property_identifier) @ref.sel)
(extends_clause value: (identifier) @ref.type)
(extends_clause value: (member_expression object: (_) @qual property: (property_identifier) @ref.type))
(type_identifier) @ref.type
(nested_type_identifier module: (_) @qual name: (type_identifier) @ref.type)

(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string (string_fragment) @import.path))
(import_statement source: (string (string_fragment) @import.path))
(export_statement source: (string (string_fragment) @import.path))
(call_expression function: (identifier) @import.fn arguments: (arguments . (string (string_fragment) @import.path) .))
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @import.path)))
(import_require_clause source: (string (string_fragment) @import.path))

; String literals (what config keys, flags and messages are written in).
(string) @literal
(template_string) @literal

; Local names and their types (Ref.Type): x = new Name(...).
(variable_declarator name: (identifier) @bind value: (new_expression constructor: (identifier) @bind.type))
; ... and annotated parameters and variables.
(required_parameter pattern: (identifier) @bind type: (type_annotation (type_identifier) @bind.type))
(optional_parameter pattern: (identifier) @bind type: (type_annotation (type_identifier) @bind.type))
(variable_declarator name: (identifier) @bind type: (type_annotation (type_identifier) @bind.type))
