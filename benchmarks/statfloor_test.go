//go:build linux && amd64

package benchmarks

import (
	"context"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// BenchmarkStatFloor is the floor of a rebuild that finds its changes by
// looking (no server watching): one lstat of every directory the walk
// reads and every file it lists, by path relative to an open root, split
// over 2 goroutines, with raw system calls (syscall.RawSyscall6: no
// scheduler bookkeeping around them) and no allocation, and nothing else. A walked rebuild has to learn at least this much, since a saved
// file changes only its own times, and a file added or removed only its
// directory's. scale.sh reports it beside the rebuilds, measured in the
// same run. ms/pass is the median pass; stats/pass the paths stat'ed.
func BenchmarkStatFloor(b *testing.B) {
	root := corpus(b)
	w, err := walk.Walk(context.Background(), root, graph.SourceWalk(walk.Options{Detect: parser.Detect, ListDirs: true}))
	if err != nil {
		b.Fatal(err)
	}
	var paths [][]byte // NUL-terminated, relative to root
	for _, d := range w.DirPaths {
		if d != "" {
			paths = append(paths, append([]byte(d), 0))
		}
	}
	for _, f := range w.Files {
		paths = append(paths, append([]byte(f.Path), 0))
	}
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer unix.Close(fd)
	pass := func() (failed int) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for k := range 2 {
			wg.Go(func() {
				var st unix.Stat_t
				n := 0
				for i := k; i < len(paths); i += 2 {
					_, _, e := syscall.RawSyscall6(syscall.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&paths[i][0])),
						uintptr(unsafe.Pointer(&st)), uintptr(unix.AT_SYMLINK_NOFOLLOW), 0, 0)
					if e != 0 {
						n++
					}
				}
				mu.Lock()
				failed += n
				mu.Unlock()
			})
		}
		wg.Wait()
		return failed
	}
	pass() // the dentries and inodes cached, as a rebuild finds them
	var times []float64
	for b.Loop() {
		t := time.Now()
		if n := pass(); n > 0 {
			b.Fatalf("%d of %d paths could not be stat'ed: the tree changed under the benchmark", n, len(paths))
		}
		times = append(times, float64(time.Since(t).Microseconds())/1000)
	}
	slices.Sort(times)
	b.ReportMetric(times[len(times)/2], "ms/pass")
	b.ReportMetric(float64(len(paths)), "stats/pass")
}
