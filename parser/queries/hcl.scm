; HCL / Terraform definitions, references and module imports. Block names,
; kinds and locals entries are settled in Go (lang_hcl.go: hclDef, hclName).

(block (identifier) @name) @def.block
; Attributes of label-less top-level blocks; hclDef keeps those of locals.
(config_file (body (block (identifier) @receiver . (block_start)
  (body (attribute (identifier) @name) @def.var))))

; var.x, local.x, module.m, aws_instance.web: the first attribute is the
; name, the root its qualifier; one level deeper for module outputs and
; data sources (module.vpc.vpc_id, data.aws_ami.ubuntu).
(expression (variable_expr (identifier) @qual) . (get_attr (identifier) @ref.sel))
(expression (variable_expr) . (get_attr (identifier) @qual) . (get_attr (identifier) @ref.sel))

; module "x" { source = "./modules/x" }: importStmt keeps source attributes.
(config_file (body (block (identifier) . (string_lit) . (block_start) (body (attribute) @import.stmt))))

(literal_value (string_lit) @literal)
(quoted_template (template_literal) @literal)
