// Package cli implements the wikitoolkit command: flag parsing, human and
// --json output, the progress bar, and the installers and hook for agent
// clients. It is the only package that prints to the terminal or decides an
// exit code; main.go only calls Main.
//
// Exit codes: 0 ok, 1 failure (including a missing index or page), 2 bad usage.
package cli
