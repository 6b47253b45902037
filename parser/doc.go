// Package parser turns one source file into Facts: definitions, references,
// imports and syntax diagnostics. It owns the languages (file extension →
// tree-sitter grammar + embedded .scm query) and knows nothing of storage.
//
// The queries are not run by tree-sitter's query cursor: program.go
// compiles the subset of the query language they use for a one-pass tree
// walker in matches.c, which finds the same matches (TestProgramAgrees) in
// about a third of the time, reading the tree's own data (the public
// cursor is the fallback); a pattern outside that subset is left to
// tree-sitter.
//
// Principal types: Parser (one per goroutine; not safe for concurrent use),
// Facts, Def, Ref, Import. Detect maps a path to a language name.
package parser
