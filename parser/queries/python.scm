; Python definitions, references and imports.

(function_definition name: (identifier) @name) @def.func
(class_definition name: (identifier) @name) @def.class
(module (expression_statement (assignment left: (identifier) @name)) @def.var)
(function_definition body: (block . (expression_statement (string) @doc))) @doc.owner
(class_definition body: (block . (expression_statement (string) @doc))) @doc.owner

(call function: (identifier) @ref.call)
(call function: (attribute object: (_) @qual attribute: (identifier) @ref.call))
(attribute object: (_) @qual attribute: (identifier) @ref.sel)
(type (identifier) @ref.type)
(generic_type (identifier) @ref.type)
(class_definition superclasses: (argument_list (identifier) @ref.type))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @ref.type)))

(import_statement name: (dotted_name) @import.path)
(import_statement name: (aliased_import name: (dotted_name) @import.path alias: (identifier) @import.alias))
(import_from_statement) @import.stmt

; String literals (what config keys, flags and messages are written in).
(string) @literal

; Local names and their declared types (Ref.Type): annotated parameters
; and variables, x = Name(...).
(typed_parameter (identifier) @bind type: (type (identifier) @bind.type))
(typed_default_parameter name: (identifier) @bind type: (type (identifier) @bind.type))
(assignment left: (identifier) @bind type: (type (identifier) @bind.type))
(assignment left: (identifier) @bind !type right: (call function: (identifier) @bind.type))
