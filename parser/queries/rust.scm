; Rust definitions, references and imports. An impl block is a @scope: it
; qualifies the functions inside it but is not itself a definition.

(function_item name: (identifier) @name) @def.func
(function_signature_item name: (identifier) @name) @def.func
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type
(mod_item name: (identifier) @name) @def.module
(const_item name: (identifier) @name) @def.const
(static_item name: (identifier) @name) @def.var
(macro_definition name: (identifier) @name) @def.macro
(struct_item body: (field_declaration_list (field_declaration name: (field_identifier) @name) @def.field))
(impl_item type: (_) @name) @scope

(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression field: (field_identifier) @ref.call))
(call_expression function: (scoped_identifier path: (_) @qual name: (identifier) @ref.call))
(field_expression value: (_) @qual field: (field_identifier) @ref.sel)
(macro_invocation macro: (identifier) @ref.call)
(type_identifier) @ref.type
(scoped_type_identifier path: (_) @qual name: (type_identifier) @ref.type)

(use_declaration argument: (_) @import.stmt)
(extern_crate_declaration name: (identifier) @import.path)

; String literals (what config keys, flags and messages are written in).
(string_literal) @literal
(raw_string_literal) @literal

; Item-position macro calls whose bodies are items (cfg_net! { ... },
; pin_project! { ... }): parsed again as Rust (parser/macro.go).
(source_file (macro_invocation (token_tree) @macro.items))
(declaration_list (macro_invocation (token_tree) @macro.items))

; Local names and their declared types (Ref.Type): parameters, let x: T.
(parameter pattern: (identifier) @bind type: (_) @bind.type)
(let_declaration pattern: (identifier) @bind type: (_) @bind.type)
