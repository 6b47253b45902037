package parser

import "github.com/smacker/go-tree-sitter/protobuf"

// Protocol Buffers. The package statement is a module covering the rest of
// the file, so messages, enums and services are qualified the way protoc
// names them (acme.store.v1.Order, acme.store.v1.Order.Item); rpcs are
// methods of their service, fields and oneofs fields, enum values consts.
func init() {
	register(&langSpec{name: "protobuf", grammar: protobuf.GetLanguage, queries: []string{"protobuf.scm"},
		fileScoped: true, builtins: set("double float int32 int64 uint32 uint64 sint32 sint64",
			"fixed32 fixed64 sfixed32 sfixed64 bool string bytes")},
		[]string{".proto"})
}
