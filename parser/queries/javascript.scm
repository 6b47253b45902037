; JavaScript (and JSX) definitions, references and imports.

(function_declaration name: (identifier) @name) @def.func
(generator_function_declaration name: (identifier) @name) @def.func
(class_declaration name: (identifier) @name) @def.class
(class_body (method_definition name: (_) @name) @def.method)
(class_body (field_definition property: (_) @name) @def.field)
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
(class_heritage (identifier) @ref.type)
(class_heritage (member_expression object: (_) @qual property: (property_identifier) @ref.type))
(jsx_opening_element name: (identifier) @ref.jsx)
(jsx_self_closing_element name: (identifier) @ref.jsx)

(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string (string_fragment) @import.path))
(import_statement source: (string (string_fragment) @import.path))
(export_statement source: (string (string_fragment) @import.path))
(call_expression function: (identifier) @import.fn arguments: (arguments . (string (string_fragment) @import.path) .))
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @import.path)))

; String literals (what config keys, flags and messages are written in).
(string) @literal
(template_string) @literal

; Local names and their types (Ref.Type): x = new Name(...).
(variable_declarator name: (identifier) @bind value: (new_expression constructor: (identifier) @bind.type))
