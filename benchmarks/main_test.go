package benchmarks

import (
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
)

// The corpora and indexes the benchmarks share are built once per process
// (sync.Once), so no single benchmark owns them: tempDir records them and
// TestMain removes them when the process ends. A synthetic 50k-file corpus
// takes 0.4 GB; left behind, every run would leak one.
var (
	tempMu   sync.Mutex
	tempDirs []string
)

func tempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		tempMu.Lock()
		tempDirs = append(tempDirs, dir)
		tempMu.Unlock()
	}
	return dir, err
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// benchTree returns WIKITOOLKIT_BENCH_REPO when set, else a synthetic
// monorepo of $filesVar files (default n) written with seed into a
// temporary directory that TestMain removes.
func benchTree(filesVar string, n int, seed uint64) (string, error) {
	if r := os.Getenv("WIKITOOLKIT_BENCH_REPO"); r != "" {
		return r, nil
	}
	if s := os.Getenv(filesVar); s != "" {
		if v, err := strconv.Atoi(s); err == nil && v > 0 {
			n = v
		}
	}
	dir, err := tempDir("wikitoolkit-synth-")
	if err != nil {
		return "", err
	}
	_, err = synth.Write(dir, synth.Options{Files: n, Seed: seed})
	return dir, err
}
