; Bash definitions, command references and sourced files.

(function_definition name: (word) @name) @def.func
(program (variable_assignment name: (variable_name) @name) @def.var)
(program (declaration_command (variable_assignment name: (variable_name) @name)) @def.var)

(command name: (command_name (word) @ref.call))

(command name: (command_name (word) @keyword) . argument: (_) @import.path)

; String literals (what config keys, flags and messages are written in).
(string) @literal
(raw_string) @literal
