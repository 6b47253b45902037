; CSS: top-level rules, @media blocks, and the rules directly inside those.
; finishCSS names them by their selector text (the signature).

(stylesheet (rule_set (selectors) @name) @def.selector)
(stylesheet (media_statement . (_) @name) @def.selector)
(stylesheet (media_statement (block (rule_set (selectors) @name) @def.selector)))
