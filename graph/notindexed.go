package graph

import (
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// IndexedBy groups a build's file counts per language by how the files were
// indexed: "grammar", "headings", "patterns" (declaration patterns, their
// definitions heuristic) or "lexical" (text: identifiers and prose only).
func IndexedBy(languages map[string]int) map[string]map[string]int {
	out := map[string]map[string]int{}
	for lang, n := range languages {
		m := parser.Method(lang)
		if m == "" {
			m = "other"
		}
		if out[m] == nil {
			out[m] = map[string]int{}
		}
		out[m][lang] += n
	}
	return out
}

// FileDiagnostic is the first syntax diagnostic of one file, with how many
// the file has.
type FileDiagnostic struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	Count   int    `json:"count"`
}

// maxDiagnosticFiles bounds the files listed with diagnostics in the build
// info; the total stays in BuildInfo.Diagnostics.
const maxDiagnosticFiles = 200

// fileDiagnostics lists the first diagnostic of each record that has one,
// in path order (records are sorted), at most maxDiagnosticFiles.
func fileDiagnostics(all []*FileRecord) []FileDiagnostic {
	var out []FileDiagnostic
	for _, f := range all {
		if f.Facts == nil || len(f.Facts.Diagnostics) == 0 {
			continue
		}
		if len(out) == maxDiagnosticFiles {
			break
		}
		d := f.Facts.Diagnostics[0]
		out = append(out, FileDiagnostic{Path: f.Path, Line: d.Line, Column: d.Column, Message: d.Message, Count: len(f.Facts.Diagnostics)})
	}
	return out
}

// IndexingNote says, for pages of language lang, how their definitions
// were found when not by a grammar: "definitions found by declaration
// patterns" for a heuristic language, "text only: no definitions" for
// "text", else "".
func IndexingNote(lang string) string {
	switch {
	case parser.Heuristic(lang) && lang == "text":
		return "text only: no definitions"
	case parser.Heuristic(lang):
		return "definitions found by declaration patterns"
	}
	return ""
}
