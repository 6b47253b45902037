package parser

import (
	"bytes"
	"time"

	"github.com/smacker/go-tree-sitter/groovy"
)

// Groovy (scripts, Gradle build files, Jenkinsfiles): classes,
// interfaces, methods, fields, script-level functions and variables. The
// grammar knows neither enum nor trait declarations nor implements
// clauses: an enum or trait is read as a variable of that type (varKinds
// turns it back into an enum or trait, without its body) and an implements
// clause is a syntax error (the class and its body are kept; groovyDef
// puts back the name the error recovery takes away).
func init() {
	register(&langSpec{
		name: "groovy", grammar: groovy.GetLanguage, queries: []string{"groovy.scm"},
		sig: sigEquals, parseLimit: time.Second, attrPrefixes: []string{"@"}, splitImport: jvmImport,
		varKinds: map[string]DefKind{"enum": KindEnum, "trait": KindTrait},
		defHook:  groovyDef,
		builtins: set(
			"def enum trait String Integer Long Boolean Object List Map Set Closure println print sleep",
			"int long short byte double float char boolean void",
		),
	}, []string{".groovy", ".gradle", ".gvy"}, "Jenkinsfile")
}

// groovyDef gives back a class its name where the grammar's error recovery
// took it: "class Version implements Comparable<Version>" parses as an
// error node "Version implements" and a class named Comparable. A name
// preceded by "implements" is such a class's interface; the class's own
// name is the word after "class" or "interface".
func groovyDef(src []byte, d *rawDef) bool {
	if d.kind != KindClass && d.kind != KindInterface {
		return true
	}
	head := src[d.start:d.nameStart]
	impl := bytes.Index(head, []byte(" implements "))
	if impl < 0 {
		return true
	}
	for _, kw := range []string{"class ", "interface "} {
		k := bytes.Index(head[:impl+1], []byte(kw))
		if k < 0 {
			continue
		}
		st := k + len(kw)
		for st < impl && head[st] == ' ' {
			st++
		}
		en := st
		for en < impl && isIdentByte(head[en]) {
			en++
		}
		if en > st {
			d.nameStart, d.nameEnd = d.start+uint32(st), d.start+uint32(en)
		}
		break
	}
	return true
}
