package parser

import "testing"

func init() { parseCases = append(parseCases, bashCases...) }

var bashCases = []parseCase{
	{
		name: "bash",
		path: "scripts/nvm.sh",
		src: `#!/usr/bin/env bash
# Node version manager helpers.

source ./lib/common.sh
\. "$NVM_DIR/bash_completion"

export NVM_DIR="${HOME}/.nvm"
NVM_DEBUG=0

# Prints a message to stderr.
# Used by every command.
nvm_err() {
  >&2 echo "$@"
}

function nvm_ls_remote {
  local PATTERN="$1"
  nvm_err "listing $PATTERN"
  curl -s "$NVM_MIRROR" | grep v
  nvm_download "index.tab"
}
`,
		doc: "Node version manager helpers.",
		defs: []string{
			"var NVM_DIR 7-7 | export NVM_DIR=\"${HOME}/.nvm\"",
			"var NVM_DEBUG 8-8",
			"func nvm_err 12-14 | nvm_err()",
			"func nvm_ls_remote 16-21 | function nvm_ls_remote",
		},
		docs: map[string]string{"nvm_err": "Prints a message to stderr.\nUsed by every command."},
		refs: []string{
			"nvm_err - call @nvm_ls_remote",
			"nvm_download - call @nvm_ls_remote",
		},
		noRefs:  []string{"echo", "curl", "grep", "local", "source"},
		imports: []string{"./lib/common.sh", "$NVM_DIR/bash_completion"},
	},
	{
		name:  "bash-broken",
		path:  "broken.sh",
		src:   "ok() {\n  echo hi\n}\nbad() {\n  if [ x ]; then\n}\n",
		defs:  []string{"func ok 1-3"},
		diags: true,
	},
}

func TestDetectBashFamily(t *testing.T) {
	for p, want := range map[string]string{"nvm.sh": "bash", "x.bash": "bash", "a.lua": "lua", "m.ex": "elixir",
		"m_test.exs": "elixir", "a.ml": "ocaml", "a.mli": "ocaml-interface", "Main.elm": "elm", ".bashrc": "text", "install": "text"} {
		if got := Detect(p); got != want {
			t.Errorf("Detect(%q) = %q, want %q", p, got, want)
		}
	}
}
