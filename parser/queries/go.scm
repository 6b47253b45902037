; Go definitions, references and imports.
; Capture roles are documented in parser/extract.go (roleByName).

(package_clause) @package

(function_declaration name: (identifier) @name) @def.func
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (_) @receiver))
  name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(type_spec type: (struct_type (field_declaration_list
  (field_declaration name: (field_identifier) @name) @def.field)))
(type_spec type: (interface_type (method_elem name: (field_identifier) @name) @def.method))
(source_file (const_declaration (const_spec name: (identifier) @name) @def.const))
(source_file (var_declaration (var_spec name: (identifier) @name) @def.var))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.var)))

(call_expression function: (identifier) @ref.call)
(call_expression function: (selector_expression operand: (_) @qual field: (field_identifier) @ref.call))
(selector_expression operand: (_) @qual field: (field_identifier) @ref.sel)
(type_identifier) @ref.type
(qualified_type package: (package_identifier) @qual name: (type_identifier) @ref.type)

; Local names and their declared types (Ref.Type): receivers, parameters,
; var x T, x := T{} and x := &T{}; struct fields (for x.f.Method()).
(parameter_declaration name: (identifier) @bind type: (_) @bind.type)
(var_spec name: (identifier) @bind type: (_) @bind.type)
(field_declaration name: (field_identifier) @bind type: (_) @bind.type)
(short_var_declaration
  left: (expression_list . (identifier) @bind)
  right: (expression_list . (composite_literal type: (_) @bind.type)))
(short_var_declaration
  left: (expression_list . (identifier) @bind)
  right: (expression_list . (unary_expression operand: (composite_literal type: (_) @bind.type))))

(import_spec name: (_) @import.alias path: (_) @import.path)
(import_spec !name path: (_) @import.path)

; String literals (what config keys, flags and messages are written in).
(interpreted_string_literal) @literal
(raw_string_literal) @literal
