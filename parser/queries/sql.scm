; SQL definitions and table references. An object_reference as @name keeps
; its schema as the qualifier (public.users).

(create_table (object_reference) @name) @def.table
(create_view (object_reference) @name) @def.table
(create_materialized_view (object_reference) @name) @def.table
(create_function (object_reference) @name) @def.func
(create_type (object_reference) @name) @def.type
(create_type (object_reference) @name (keyword_enum)) @def.enum
(create_table (column_definitions (column_definition name: (identifier) @name) @def.field))

(relation (object_reference name: (identifier) @ref.type))
(relation (object_reference schema: (identifier) @qual name: (identifier) @ref.type))
(column_definition (object_reference name: (identifier) @ref.type))
(constraint (object_reference name: (identifier) @ref.type))
(create_index (object_reference name: (identifier) @ref.type))
(insert (object_reference name: (identifier) @ref.type))
(insert (object_reference schema: (identifier) @qual name: (identifier) @ref.type))
(alter_table (object_reference name: (identifier) @ref.type))
(from (object_reference name: (identifier) @ref.type))
(invocation (object_reference name: (identifier) @ref.call))

(literal) @literal
