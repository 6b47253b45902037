package parser

import "github.com/smacker/go-tree-sitter/css"

// CSS: the selectors of top-level rules and of rules inside a top-level
// @media, which qualifies them ("@media (max-width: 600px) .nav"); the
// comment above a rule is its doc.
func init() {
	register(&langSpec{name: "css", grammar: css.GetLanguage, queries: []string{"css.scm"},
		finish: finishCSS}, []string{".css"})
}

// finishCSS names each rule by its selector text as written (the query's
// name node would be split at every '.'), qualifies the rules of a media
// query by it, and caps the definitions.
func finishCSS(_ string, _ []byte, f *Facts) {
	for i := range f.Defs {
		d := &f.Defs[i]
		d.Name = d.Signature
		d.Qualified = d.Name
		if d.Parent >= 0 {
			d.Qualified = truncate(f.Defs[d.Parent].Qualified+" "+d.Name, MaxSignatureBytes)
		}
	}
	capDefs(f, maxDataDefs)
}
