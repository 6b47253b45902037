package parser

import (
	"time"

	"github.com/smacker/go-tree-sitter/scala"
)

// Scala: classes, objects, traits, enums (Scala 3), defs, vals and vars of
// templates, type members, givens and extension methods (qualified by the
// extended type). A package clause with a body is a module; the
// file-level package is not part of qualified names (as in Java).
func init() {
	register(&langSpec{
		name: "scala", grammar: scala.GetLanguage, queries: []string{"scala.scm"},
		sig: sigEquals, parseLimit: time.Second, attrPrefixes: []string{"@"}, splitImport: jvmImport,
		trimEnd: true, // an indented block (Scala 3) ends at the next dedent
		builtins: set(
			"Any AnyRef AnyVal Nothing Null Unit Int Long Short Byte Double Float Char Boolean String",
			"Option Some None List Seq Vector Map Set Array Either Left Right Try Success Failure Future",
			"println print require assert implicitly identity classOf",
		),
	}, []string{".scala", ".sc"})
}
