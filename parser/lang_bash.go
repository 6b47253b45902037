package parser

import (
	"bytes"

	"github.com/smacker/go-tree-sitter/bash"
)

// Bash: functions (f() {} and function f {}), top-level and exported
// variables, source/. imports, the # comment block above a function as its
// doc. Detect looks only at names, so extension-less scripts with a shell
// shebang are not recognised; .bashrc-like dot files are left out too.
func init() {
	register(&langSpec{name: "bash", grammar: bash.GetLanguage, queries: []string{"bash.scm"},
		comments: commentHash, sig: sigBrace, prepare: unescapeDot,
		keywords: map[string]DefKind{"source": KindUnknown, ".": KindUnknown},
		// Builtins and the common external commands: a command name is a
		// reference only when it may be a function of the repository.
		builtins: set(
			"source . : [ [[ alias bg bind break builtin caller cd command compgen complete continue declare dirs disown echo enable",
			"eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd",
			"read readarray readonly return set shift shopt suspend test times trap true type typeset ulimit umask unalias unset wait",
			"awk basename cat chmod chown cp curl cut date dirname du env expr find git grep gzip head id install ln ls mkdir mktemp",
			"mv nohup od rm rmdir sed seq sh bash sleep sort stat sudo tail tar tee touch tr uname uniq wc wget which xargs zsh")},
		[]string{".sh", ".bash"})
}

// unescapeDot returns a copy of src in which a line's leading "\\. " (the
// dot command with alias expansion suppressed, as nvm writes it) reads
// " . ": tree-sitter-bash takes the backslash for a line continuation and
// joins the command to the one before, losing the import.
func unescapeDot(src []byte) []byte {
	if !bytes.Contains(src, []byte("\\. ")) {
		return src
	}
	return rewriteBytes(src, func(out []byte, i int, lineStart bool) {
		if lineStart && out[i] == '\\' && bytes.HasPrefix(out[i:], []byte("\\. ")) {
			out[i] = ' '
		}
	})
}

// rewriteBytes returns a copy of src changed in place by edit, which is
// called at every byte that is not a line break or blank, with whether it
// is the first such byte of its line. edit may change bytes at or after i
// but never the length, so offsets and lines stay those of src (a
// langSpec.prepare).
func rewriteBytes(src []byte, edit func(out []byte, i int, lineStart bool)) []byte {
	out := bytes.Clone(src)
	lineStart := true
	for i := 0; i < len(out); i++ {
		switch out[i] {
		case '\n':
			lineStart = true
			continue
		case ' ', '\t':
			continue
		}
		edit(out, i, lineStart)
		lineStart = false
	}
	return out
}
