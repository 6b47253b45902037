package graph

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// The first build of a large tree does not wait for the walk of the
// whole tree. Its first partial generation, which is a server's first
// answer, needs only the first batch: the first files in path order. Once
// the walk has listed more files than a small tree holds (smallTree
// batches), walk.Prefix lists those first files by reading only the
// directories that hold them and those before them, and the build parses,
// writes and publishes them while the walk goes on. When the walk is done,
// its first files must be the batch's (the tree may have changed in
// between); then the build goes on with the rest of the tree, as if it had
// cut that first batch itself. Otherwise it starts again from the walk's
// list (errPrefixMoved), as a build that had not tried.
//
// The walk of the tree is held (walk.Options.Hold) from the moment the
// tree proves large until the first batch is published: its 8 goroutines
// would otherwise take most of the two cores from walk.Prefix's one and
// the batch's two parsers. The rest of the walk then runs while nothing
// else does, as it did before the first batch.
//
// At 100k synthetic files the walk takes about 1 s with the directories
// cached and 7 s on a cold cache (benchmarks/cold.sh), which a server
// started on the tree with no index waited before its first batch.

// earlyBatch is the first batch of a first build, listed before the walk
// of the whole tree is done.
type earlyBatch struct {
	files []walk.File // the first batch, in path order
	// rest lets the walk go on (it is held while the first batch is
	// parsed and published), waits for it and returns the files of the
	// whole tree (in path order) and how to count the files it did not
	// list, or the walk's error.
	rest func() ([]walk.File, func([]walk.Skip) []walk.NotIndexed, error)
}

// walkHook, when set (tests), is called with the result of a first
// build's walk of the whole tree before the build sees it.
var walkHook func(*walk.Result)

// errPrefixMoved: the walk's first files are not the early batch's; the
// build starts again from the walk's list.
var errPrefixMoved = errors.New("the first files changed while the tree was walked")

// treeWalk is a walk of the whole tree running on a goroutine of its own.
type treeWalk struct {
	done   chan struct{}
	cancel context.CancelFunc
	res    *walk.Result
	err    error
	once   sync.Once
	// held, when not nil, is closed when the walk may go on.
	held atomic.Pointer[chan struct{}]
}

// hold is the walk's Options.Hold: it waits while the walk is held.
func (tw *treeWalk) hold() {
	if p := tw.held.Load(); p != nil {
		<-*p
	}
}

// pause holds the walk's goroutines before their next directory.
func (tw *treeWalk) pause() {
	c := make(chan struct{})
	tw.held.Store(&c)
}

// resume lets the walk go on.
func (tw *treeWalk) resume() {
	if p := tw.held.Swap(nil); p != nil {
		close(*p)
	}
}

// wait lets the walk go on, waits for it and returns its result.
func (tw *treeWalk) wait() (*walk.Result, error) {
	tw.resume()
	<-tw.done
	tw.once.Do(tw.cancel)
	return tw.res, tw.err
}

// stop ends the walk if it still runs and waits for its goroutine.
func (tw *treeWalk) stop() {
	tw.once.Do(tw.cancel)
	tw.resume()
	<-tw.done
}

// firstWalk walks the tree of a first build with wopt. It returns the
// walk's result, or, on a large tree, the first batch (walk.Prefix's
// first files) and the walk still running: the caller must stop it.
func firstWalk(ctx context.Context, root string, wopt walk.Options, dir string) (*walk.Result, []walk.File, *treeWalk, error) {
	maxFiles := batchMaxFiles()
	if !replaceable(dir) {
		// No partial generation would be published (a complete one is
		// live): nothing to answer early.
		res, err := walk.Walk(ctx, root, wopt)
		return res, nil, nil, err
	}
	var listed atomic.Int64
	wopt.Listed = &listed
	wctx, cancel := context.WithCancel(ctx)
	tw := &treeWalk{done: make(chan struct{}), cancel: cancel}
	wopt.Hold = tw.hold
	go func() {
		defer close(tw.done)
		tw.res, tw.err = walk.Walk(wctx, root, wopt)
		if walkHook != nil && tw.err == nil {
			walkHook(tw.res)
		}
	}()
	// The walk alone, unless it lists more files than a small tree holds.
	// A large tree takes the early way even when its walk is already done,
	// so that the way a tree builds does not depend on timing.
	large := int64(smallTree * maxFiles)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for listed.Load() <= large {
		select {
		case <-tw.done:
			if listed.Load() <= large {
				res, err := tw.wait()
				return res, nil, nil, err
			}
		case <-tick.C:
		}
	}
	tw.pause() // until the first batch is published (earlyBatch.rest)
	popt := wopt
	popt.Listed, popt.Sketch, popt.Hold = nil, false, nil
	first := min(firstBatchFiles, maxFiles)
	files, _, complete, err := walk.Prefix(ctx, root, popt, first)
	if err != nil || complete || len(files) == 0 {
		// The walk's list will do (ctx's error is the walk's too).
		res, werr := tw.wait()
		return res, nil, nil, werr
	}
	return nil, files[:batchLen(files, first)], tw, nil
}
