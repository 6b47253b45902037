; TOML: [table] and [[array.of.tables]] headers, and the keys of the
; document and of each table. A table's dotted name qualifies its keys.

(table [(bare_key) (dotted_key) (quoted_key)] @name) @def.table
(table_array_element [(bare_key) (dotted_key) (quoted_key)] @name) @def.table
(document (pair [(bare_key) (dotted_key) (quoted_key)] @name) @def.key)
(table (pair [(bare_key) (dotted_key) (quoted_key)] @name) @def.key)
(table_array_element (pair [(bare_key) (dotted_key) (quoted_key)] @name) @def.key)

; String values, also in arrays and inline tables.
(pair (string) @literal)
(array (string) @literal)
