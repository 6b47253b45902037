; Elm definitions, references, imports and docs.

(module_declaration name: (upper_case_qid) @name) @def.module
(file (value_declaration (function_declaration_left . (lower_case_identifier) @name)) @def.func)
(type_declaration name: (upper_case_identifier) @name) @def.type
(type_alias_declaration name: (upper_case_identifier) @name) @def.type
(port_annotation name: (lower_case_identifier) @name) @def.func

(file (block_comment) @doc . (type_annotation) . (value_declaration) @doc.owner)
(file (module_declaration) @doc.owner . (block_comment) @doc)

(function_call_expr target: (value_expr name: (value_qid (lower_case_identifier) @ref.call)))
(function_call_expr target: (value_expr name: (value_qid (upper_case_identifier) @qual . (dot) . (lower_case_identifier) @ref.call)))
(bin_op_expr (value_expr name: (value_qid (lower_case_identifier) @ref.call)))
(type_ref (upper_case_qid (upper_case_identifier) @ref.type .))

(import_clause moduleName: (upper_case_qid) @import.path)
(import_clause moduleName: (upper_case_qid) @import.path asClause: (as_clause name: (upper_case_identifier) @import.alias))

; String literals (what config keys, flags and messages are written in).
(string_constant_expr) @literal
