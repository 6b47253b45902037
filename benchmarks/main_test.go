package benchmarks

import (
	"os"
	"sync"
	"testing"
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
