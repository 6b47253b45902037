package benchmarks

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
)

// TestWriteSynth is a tool, not a check: with WIKITOOLKIT_SYNTH_DIR set it
// writes the synthetic monorepo the benchmarks measure (seed 1, or
// WIKITOOLKIT_SYNTH_SEED) with WIKITOOLKIT_SYNTH_FILES files (default
// 100,000) into that new or empty directory, and prints one line
// `synth {"files": N, "bytes": B}` counted on disk. benchmarks/scale.sh runs it:
//
//	WIKITOOLKIT_SYNTH_DIR=/tmp/synth go test ./benchmarks -run '^TestWriteSynth$' -v
func TestWriteSynth(t *testing.T) {
	dir := os.Getenv("WIKITOOLKIT_SYNTH_DIR")
	if dir == "" {
		t.Skip("set WIKITOOLKIT_SYNTH_DIR to write a synthetic tree there")
	}
	opt := synth.Options{Files: 100000, Seed: 1}
	if s := os.Getenv("WIKITOOLKIT_SYNTH_FILES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("WIKITOOLKIT_SYNTH_FILES=%q: want a positive number of files", s)
		}
		opt.Files = v
	}
	if s := os.Getenv("WIKITOOLKIT_SYNTH_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil || v == 0 {
			t.Fatalf("WIKITOOLKIT_SYNTH_SEED=%q: want a positive number", s)
		}
		opt.Seed = v
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		t.Fatalf("%s is not empty: give a new or empty directory", dir)
	}
	written, err := synth.Write(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	var files, bytes int64
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		bytes += info.Size()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// synth.Write adds a README.md to the source files.
	if files != int64(opt.Files)+1 || bytes != written {
		t.Fatalf("synth.Write reported %d bytes for %d files; on disk: %d files, %d bytes", written, opt.Files+1, files, bytes)
	}
	b, _ := json.Marshal(map[string]int64{"files": files, "bytes": bytes})
	t.Logf("synth %s", b)
}
