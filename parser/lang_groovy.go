package parser

import (
	"time"

	"github.com/smacker/go-tree-sitter/groovy"
)

// Groovy (scripts, Gradle build files, Jenkinsfiles): classes,
// interfaces, methods, fields, script-level functions and variables. The
// grammar knows neither enum nor trait declarations nor implements
// clauses: an enum or trait is read as a variable of that type (varKinds
// turns it back into an enum or trait, without its body) and an implements
// clause is a syntax error (the class and its body are kept).
func init() {
	register(&langSpec{
		name: "groovy", grammar: groovy.GetLanguage, queries: []string{"groovy.scm"},
		sig: sigEquals, parseLimit: time.Second, attrPrefixes: []string{"@"}, splitImport: jvmImport,
		varKinds: map[string]DefKind{"enum": KindEnum, "trait": KindTrait},
		builtins: set(
			"def enum trait String Integer Long Boolean Object List Map Set Closure println print sleep",
			"int long short byte double float char boolean void",
		),
	}, []string{".groovy", ".gradle", ".gvy"}, "Jenkinsfile")
}
