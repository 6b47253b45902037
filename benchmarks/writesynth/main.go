// Command writesynth writes the deterministic synthetic monorepo of package
// synth into a directory, for benchmarks/scale.sh and anyone who wants the
// tree the benchmarks measure:
//
//	go run ./benchmarks/writesynth -files 100000 -seed 1 /tmp/synth
//
// It prints the file count and the bytes written as one JSON line.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
)

func main() {
	files := flag.Int("files", 100000, "source files to write")
	seed := flag.Uint64("seed", 1, "generator seed (the same seed writes the same bytes)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: writesynth [-files N] [-seed S] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *files <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		fmt.Fprintf(os.Stderr, "writesynth: %s is not empty; give a new or empty directory\n", dir)
		os.Exit(1)
	}
	n, err := synth.Write(dir, synth.Options{Files: *files, Seed: *seed})
	if err != nil {
		fmt.Fprintf(os.Stderr, "writesynth: %v\n", err)
		os.Exit(1)
	}
	// synth.Write adds a README.md to the source files.
	json.NewEncoder(os.Stdout).Encode(map[string]int64{"files": int64(*files) + 1, "bytes": n})
}
