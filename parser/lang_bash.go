package parser

import "github.com/smacker/go-tree-sitter/bash"

// Bash: functions (f() {} and function f {}), top-level and exported
// variables, source/. imports, the # comment block above a function as its
// doc. Detect looks only at names, so extension-less scripts with a shell
// shebang are not recognised; .bashrc-like dot files are left out too.
func init() {
	register(&langSpec{name: "bash", grammar: bash.GetLanguage, queries: []string{"bash.scm"},
		comments: commentHash, sig: sigBrace,
		keywords: map[string]DefKind{"source": KindUnknown, ".": KindUnknown, "\\.": KindUnknown},
		// Builtins and the common external commands: a command name is a
		// reference only when it may be a function of the repository.
		builtins: set(
			"source . \\. : [ [[ alias bg bind break builtin caller cd command compgen complete continue declare dirs disown echo enable",
			"eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd",
			"read readarray readonly return set shift shopt suspend test times trap true type typeset ulimit umask unalias unset wait",
			"awk basename cat chmod chown cp curl cut date dirname du env expr find git grep gzip head id install ln ls mkdir mktemp",
			"mv nohup od rm rmdir sed seq sh bash sleep sort stat sudo tail tar tee touch tr uname uniq wc wget which xargs zsh")},
		[]string{".sh", ".bash"})
}
