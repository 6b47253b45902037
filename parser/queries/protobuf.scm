; Protocol Buffers definitions, references and imports.

(package (full_ident) @name) @def.module
(message (message_name (identifier) @name)) @def.struct
(enum (enum_name (identifier) @name)) @def.enum
(service (service_name (identifier) @name)) @def.interface
(rpc (rpc_name (identifier) @name)) @def.method
(field (identifier) @name) @def.field
(map_field (identifier) @name) @def.field
(oneof (identifier) @name) @def.field
(oneof_field (identifier) @name) @def.field
(enum_field (identifier) @name) @def.const

; Field, rpc and extend types: each identifier, qualified by the one before
; it (google.protobuf.Timestamp: Timestamp qualified by protobuf). A
; trailing anchor would keep only the last, but the query cursor does not
; honour it the way the walker does.
(message_or_enum_type (identifier) @ref.type)
(message_or_enum_type (identifier) @qual . (identifier) @ref.type)

(import path: (string) @import.path)

(string) @literal
