// Package parser turns one file into Facts: definitions, references,
// imports, string literals and syntax diagnostics. It owns the languages and
// knows nothing of storage. A file is indexed in one of four ways (Method):
//   - "grammar": a tree-sitter grammar and an embedded query
//     (queries/LANG.scm, a lang_*.go spec for what the query leaves out):
//     programming languages, data and build files (YAML, JSON, TOML, HCL,
//     Dockerfile, SQL, Protocol Buffers, CUE, …) whose keys are capped
//     (filekinds.go), Markdown sections; Rust items inside macro calls are
//     parsed again from the macro's body (macro.go), and Jinja and Go
//     templates add their named blocks (template.go);
//   - "headings": reStructuredText and AsciiDoc, by heading rules
//     (lang_docs.go);
//   - "patterns": languages without a grammar here, by a lexical scan and
//     per-language declaration patterns (lexical.go, lang_heuristic.go);
//   - "lexical": plain text, identifiers and comments only.
//
// Every tree-sitter parse runs under a time limit (per language where a grammar's error
// recovery runs away), so a pathological file costs a bounded time and
// becomes a diagnostic.
//
// The queries are not run by tree-sitter's query cursor: program.go
// compiles the subset of the query language they use for a one-pass tree
// walker in matches.c, which finds the same matches (TestProgramAgrees) in
// about a third of the time, reading the tree's own data (the public
// cursor is the fallback); a pattern outside that subset is left to
// tree-sitter. Tree-sitter never compiles the whole query (~9 ms for Go,
// paid by a process's first parse): the capture names come from the
// source in tree-sitter's order (TestCaptureNames), and the tests compile
// the whole query to compare against.
//
// Principal types: Parser (one per goroutine; not safe for concurrent use),
// Facts, Def, Ref, Import, Literal. Detect maps a path to a language name
// (NotIndexedReason says why it rejects one), Method how that language is
// indexed; Languages lists the supported language names.
package parser
