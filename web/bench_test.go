package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkFilePage renders a file page through the handler: the fixture's
// long file, or with WIKITOOLKIT_WEB_BENCH_INDEX (an index folder) and
// WIKITOOLKIT_WEB_BENCH_FILE (a path in it) a real repository's file. It
// reports the page's bytes and the p50 and p90 of the calls, cold (the
// highlighting cache emptied before each) and warm.
func BenchmarkFilePage(b *testing.B) {
	indexDir, file := os.Getenv("WIKITOOLKIT_WEB_BENCH_INDEX"), os.Getenv("WIKITOOLKIT_WEB_BENCH_FILE")
	var srv *Server
	if indexDir == "" {
		root := fixtureRoot(b)
		indexDir, file = filepath.Join(root, ".wikitoolkit"), longFile
		srv = newServer(b, root)
	} else {
		var err error
		if srv, err = New(Options{IndexDir: indexDir, CheckEvery: -1}); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { srv.Close() })
	}
	h := srv.Handler()
	url := "/page/" + escapeID("file:"+file)
	get := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", url, nil)
		req.Host = "127.0.0.1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET %s: %d\n%s", url, w.Code, w.Body.String())
		}
		return w
	}
	size := get().Body.Len() // the graph is decoded once per generation
	for _, cold := range []bool{true, false} {
		name := "warm" // the highlighted window is cached
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			var took []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				if cold {
					highlighted.reset()
				}
				start := time.Now()
				get()
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(size), "page-bytes")
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, "p90-ms")
		})
	}
}
