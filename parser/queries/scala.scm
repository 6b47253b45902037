; Scala definitions, references and imports. An extension block is a
; @scope qualified by the type it extends. A file-level package clause is
; not part of qualified names (as in Java); a package block is a module.

(class_definition name: (identifier) @name) @def.class
(object_definition name: (identifier) @name) @def.class
(package_object name: (identifier) @name) @def.module
(trait_definition name: (identifier) @name) @def.trait
(enum_definition name: (identifier) @name) @def.enum
(package_clause name: (package_identifier) @name body: (_)) @def.module
(type_definition name: (type_identifier) @name) @def.type
(function_definition name: (identifier) @name) @def.func
(function_declaration name: (identifier) @name) @def.func
(template_body (val_definition pattern: (identifier) @name) @def.field)
(template_body (var_definition pattern: (identifier) @name) @def.field)
(template_body (val_declaration name: (identifier) @name) @def.field)
(template_body (var_declaration name: (identifier) @name) @def.field)
(compilation_unit (val_definition pattern: (identifier) @name) @def.var)
(compilation_unit (var_definition pattern: (identifier) @name) @def.var)
(given_definition name: (identifier) @name) @def.var
(class_parameter "val" name: (identifier) @name) @def.field
(class_parameter "var" name: (identifier) @name) @def.field
; A case class's first parameter list is its public fields, val or not.
(class_definition "case" name: (identifier) . (class_parameters (class_parameter name: (identifier) @name) @def.field))
(class_definition "case" name: (identifier) . (type_parameters) . (class_parameters (class_parameter name: (identifier) @name) @def.field))
(simple_enum_case name: (identifier) @name) @def.const
(full_enum_case name: (identifier) @name) @def.class
(extension_definition parameters: (parameters (parameter type: (_) @name))) @scope

(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression value: (_) @qual field: (identifier) @ref.call))
(generic_function function: (identifier) @ref.call)
(field_expression value: (_) @qual field: (identifier) @ref.sel)
(instance_expression (type_identifier) @ref.call)
(instance_expression (generic_type type: (type_identifier) @ref.call))
(type_identifier) @ref.type
(stable_type_identifier (_) @qual . (type_identifier) @ref.type .)

(import_declaration) @import.stmt

; String literals (what config keys, flags and messages are written in).
(string) @literal
(interpolated_string_expression) @literal
