// Command wikitoolkit turns a code repository into a knowledge graph and
// serves it to people and AI coding agents. See README.md.
package main

import (
	"os"

	"github.com/wikitoolkit/wikitoolkit/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
