package parser

import "github.com/smacker/go-tree-sitter/sql"

// SQL. Tables and views (materialized too) are tables, their columns
// fields; functions are funcs, types types (enums enums). Tables named in
// FROM, JOIN, REFERENCES, INSERT, UPDATE, ALTER and CREATE INDEX are type
// references, a schema their qualifier. An index is not a definition: its
// name is rarely what anyone asks for, its table is. The grammar has no
// CREATE PROCEDURE or CREATE TRIGGER body; such statements come out as
// diagnostics and are skipped.
func init() {
	register(&langSpec{name: "sql", grammar: sql.GetLanguage, queries: []string{"sql.scm"},
		comments: commentDash, builtins: set(
			"count sum min max avg coalesce nullif greatest least now lower upper length trim",
			"substring replace concat cast round abs exists")},
		[]string{".sql"})
}
