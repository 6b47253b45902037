; OCaml definitions, references and opens.

(compilation_unit (value_definition (let_binding pattern: (value_name) @name (parameter))) @def.func)
(compilation_unit (value_definition (let_binding pattern: (value_name) @name body: (fun_expression))) @def.func)
(compilation_unit (value_definition (let_binding pattern: (value_name) @name body: (function_expression))) @def.func)
(compilation_unit (value_definition (let_binding pattern: (value_name) @name)) @def.var)
(structure (value_definition (let_binding pattern: (value_name) @name (parameter))) @def.func)
(structure (value_definition (let_binding pattern: (value_name) @name body: (fun_expression))) @def.func)
(structure (value_definition (let_binding pattern: (value_name) @name body: (function_expression))) @def.func)
(structure (value_definition (let_binding pattern: (value_name) @name)) @def.var)
(type_definition (type_binding name: (type_constructor) @name)) @def.type
(module_definition (module_binding name: (module_name) @name)) @def.module
(module_type_definition name: (module_type_name) @name) @def.interface
(class_definition (class_binding name: (class_name) @name)) @def.class
(method_definition name: (method_name) @name) @def.method
(value_specification (value_name) @name) @def.func
(external (value_name) @name) @def.func

(application_expression function: (value_path (value_name) @ref.call))
(application_expression function: (value_path (module_path (module_name) @qual) (value_name) @ref.call))
(type_constructor_path (type_constructor) @ref.type)

(open_module (module_path) @import.path)

; String literals (what config keys, flags and messages are written in).
(string) @literal
