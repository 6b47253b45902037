package parser

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchCorpus returns the Go files under $WIKITOOLKIT_BENCH_GOROOT (default
// /usr/local/go/src), skipping the benchmark when there are none.
func benchCorpus(b *testing.B) ([]string, [][]byte, int64) {
	b.Helper()
	root := os.Getenv("WIKITOOLKIT_BENCH_GOROOT")
	if root == "" {
		root = "/usr/local/go/src"
	}
	var paths []string
	var srcs [][]byte
	var total int64
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		paths = append(paths, p)
		srcs = append(srcs, src)
		total += int64(len(src))
		return nil
	})
	if len(paths) == 0 {
		b.Skipf("no Go files under %s", root)
	}
	return paths, srcs, total
}

// BenchmarkParse measures Parse (tree-sitter parse plus extraction) and
// ParseOnly (the parse alone) over the Go standard library, one goroutine.
// Extraction should add well under half of the parse time.
func BenchmarkParse(b *testing.B) {
	paths, srcs, total := benchCorpus(b)
	ctx := context.Background()
	for _, mode := range []string{"ParseOnly", "Parse"} {
		b.Run(mode, func(b *testing.B) {
			p := NewParser()
			defer p.Close()
			b.SetBytes(total)
			b.ResetTimer()
			for range b.N {
				for i, src := range srcs {
					var err error
					if mode == "Parse" {
						_, err = p.Parse(ctx, paths[i], src)
					} else {
						err = p.ParseOnly(ctx, paths[i], src)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(total)*float64(b.N)/1e6/b.Elapsed().Seconds(), "MB/s")
		})
	}
}
