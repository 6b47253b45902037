// Package parser turns one source file into Facts: definitions, references,
// imports and syntax diagnostics. It owns the languages (file extension →
// tree-sitter grammar + embedded .scm query) and knows nothing of storage.
//
// Principal types: Parser (one per goroutine; not safe for concurrent use),
// Facts, Def, Ref, Import. Detect maps a path to a language name.
package parser
