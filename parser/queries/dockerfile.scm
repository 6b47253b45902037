; Dockerfile: a FROM starts a stage, named by AS or else (finishDockerfile)
; after its image; ARG and ENV names are keys of the stage they are in.

(from_instruction as: (image_alias) @name) @def.stage
(from_instruction (image_spec name: (image_name) @name) !as) @def.stage
(arg_instruction name: (unquoted_string) @name) @def.key
(env_pair name: (_) @name) @def.key

; Commands and quoted values.
(shell_command) @literal
(json_string) @literal
(double_quoted_string) @literal
(single_quoted_string) @literal

