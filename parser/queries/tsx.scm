; TSX: appended to typescript.scm. JSX component uses (lower-case tags are
; HTML elements and are dropped in Go).

(jsx_opening_element name: (identifier) @ref.jsx)
(jsx_self_closing_element name: (identifier) @ref.jsx)
