package graph

import "os"

// Crash points: a test hook. When the environment variable
// WIKITOOLKIT_CRASH_AT names one of the steps below, the process exits at
// once with status 99 when it reaches that step (os.Exit: no deferred
// cleanup, no lock release but the kernel's), so that a test can stop a
// build deterministically at each step of publishing a generation and
// check what a reader and the next build see (cli/crashorder_test.go). The
// variable is read once at start; unset, each point costs one comparison
// of an empty string.
//
// The steps of commit, in order (CURRENT switches at current-renamed):
//
//	gen-written         the Badger write batch is flushed
//	gen-synced          Badger's value log is synced
//	gen-closed          Badger is closed: memtables flushed to synced tables
//	seal-tmp-written    the seal's temporary file is written
//	seal-tmp-synced     ... synced and closed
//	seal-renamed        ... renamed to gen/NNNNNN/SEAL
//	seal-dir-synced     gen/NNNNNN is synced
//	gen-dir-synced      gen/ is synced (the generation's folder entry is durable)
//	current-tmp-written CURRENT's temporary file is written
//	current-tmp-synced  ... synced and closed
//	current-renamed     ... renamed to CURRENT: the new generation is live
//	current-dir-synced  the index directory is synced
var crashAt = os.Getenv("WIKITOOLKIT_CRASH_AT")

// crashExit is the exit status of a process stopped at a crash point.
const crashExit = 99

// crashPoint exits the process if WIKITOOLKIT_CRASH_AT names the step
// prefix-step (or step, when prefix is empty).
func crashPoint(prefix, step string) {
	if crashAt == "" {
		return
	}
	name := step
	if prefix != "" {
		name = prefix + "-" + step
	}
	if crashAt == name {
		os.Exit(crashExit)
	}
}
