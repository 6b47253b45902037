package parser

import (
	"time"

	"github.com/smacker/go-tree-sitter/swift"
)

// Swift: classes, structs, enums, actors, protocols (interfaces),
// functions, initializers, properties and typealiases; an extension is a
// scope that qualifies its members by the extended type.
func init() {
	register(&langSpec{
		name: "swift", grammar: swift.GetLanguage, queries: []string{"swift.scm"},
		sig: sigEquals, parseLimit: time.Second, attrPrefixes: []string{"@"},
		builtins: set(
			"Any AnyObject Self Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16 UInt32 UInt64 Double Float Bool",
			"String Character Void Never Optional Array Dictionary Set Error Result Equatable Hashable Sendable",
			"print debugPrint min max abs precondition preconditionFailure assert assertionFailure fatalError",
		),
	}, []string{".swift"})
}
