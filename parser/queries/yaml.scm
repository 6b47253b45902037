; YAML and JSON (the YAML grammar parses JSON as flow style).
; Keys to depth 2: a document's top-level keys and the keys of their
; mapping values. Deeper keys are not definitions; their values are
; literals of the depth-2 key around them.

(document (block_node (block_mapping (block_mapping_pair key: (flow_node) @name) @def.key)))
(document (block_node (block_mapping (block_mapping_pair
  value: (block_node (block_mapping (block_mapping_pair key: (flow_node) @name) @def.key))))))
(document (block_node (block_mapping (block_mapping_pair
  value: (flow_node (flow_mapping (flow_pair key: (flow_node) @name) @def.key))))))
(document (flow_node (flow_mapping (flow_pair key: (flow_node) @name) @def.key)))
(document (flow_node (flow_mapping (flow_pair
  value: (flow_node (flow_mapping (flow_pair key: (flow_node) @name) @def.key))))))

; String values (not keys, numbers or booleans) are literals.
(block_mapping_pair value: (flow_node (plain_scalar (string_scalar) @literal)))
(block_mapping_pair value: (flow_node (double_quote_scalar) @literal))
(block_mapping_pair value: (flow_node (single_quote_scalar) @literal))
(block_mapping_pair value: (block_node (block_scalar) @literal))
(flow_pair value: (flow_node (plain_scalar (string_scalar) @literal)))
(flow_pair value: (flow_node (double_quote_scalar) @literal))
(flow_pair value: (flow_node (single_quote_scalar) @literal))
(block_sequence_item (flow_node (plain_scalar (string_scalar) @literal)))
(block_sequence_item (flow_node (double_quote_scalar) @literal))
(block_sequence_item (flow_node (single_quote_scalar) @literal))
(flow_sequence (flow_node (plain_scalar (string_scalar) @literal)))
(flow_sequence (flow_node (double_quote_scalar) @literal))
(flow_sequence (flow_node (single_quote_scalar) @literal))
