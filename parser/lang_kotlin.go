package parser

import (
	"time"

	"github.com/smacker/go-tree-sitter/kotlin"
)

// Kotlin: classes, interfaces, objects (companions nest under their
// class), enum classes, functions (an extension function is qualified by
// its receiver type), properties and typealiases. Like Java, the package
// is not part of qualified names.
func init() {
	register(&langSpec{
		name: "kotlin", grammar: kotlin.GetLanguage, queries: []string{"kotlin.scm"},
		sig: sigEquals, parseLimit: time.Second, attrPrefixes: []string{"@"}, splitImport: jvmImport,
		builtins: set(
			"Any Unit Nothing Int Long Short Byte Double Float Char Boolean String Array List MutableList",
			"Map MutableMap Set MutableSet Pair Triple Sequence Comparable Iterable Collection Throwable Exception",
			"println print listOf mutableListOf mapOf mutableMapOf setOf mutableSetOf emptyList emptyMap emptySet",
			"arrayOf require requireNotNull check checkNotNull error lazy let also apply run with takeIf repeat to TODO",
		),
	}, []string{".kt", ".kts"})
}
