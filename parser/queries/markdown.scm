; Markdown block structure: headings become sections; the first paragraph
; is the file's doc.

(atx_heading) @heading
(setext_heading) @heading
(paragraph) @paragraph
