package parser

import (
	"bytes"
	"strings"

	"github.com/smacker/go-tree-sitter/cue"
)

// CUE. A definition (#Name, at any depth) is a struct when its value is a
// struct literal and a type otherwise; the fields of the file's top level,
// and the fields of its top-level structs and definitions, are keys (keys
// of a configuration, which qualify what they contain). Names keep their
// '#': #Service and Service are different names in CUE.
func init() {
	register(&langSpec{name: "cue", grammar: cue.GetLanguage, queries: []string{"cue.scm"}, defHook: cueDef},
		[]string{".cue"})
}

// cueDef keeps a "type" capture (every field label) only for #definitions,
// and sorts the kept ones into keys, structs and types.
func cueDef(src []byte, d *rawDef) bool {
	def := strings.HasPrefix(strings.TrimLeft(string(src[d.nameStart:min(d.nameEnd, d.nameStart+2)]), "_"), "#")
	if d.kind == KindType && !def {
		return false
	}
	switch {
	case !def:
		d.kind = KindKey
	case bytes.HasPrefix(bytes.TrimLeft(src[d.nameEnd:d.end], ":?! \t\r\n"), []byte("{")):
		d.kind = KindStruct
	default:
		d.kind = KindType
	}
	return true
}
