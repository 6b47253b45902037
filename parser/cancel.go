package parser

import (
	"context"
	"reflect"
	"sync/atomic"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// go-tree-sitter's ParseCtx starts a goroutine for every parse with a
// context that can be cancelled, to raise the parser's cancellation flag
// when the context ends. For a build's thousands of small files that
// goroutine, its channel and the wake-ups of idle threads it causes cost
// more than it is worth: moby's full build made 4,000 fewer context
// switches (of 32,000) and took 2–3 % less time without it (3 runs each,
// alternated). A Parser instead watches the context of its parses with one
// goroutine, started when the context changes (a build hands each worker
// one context for all its files), and parses with a context that cannot
// be cancelled.

// ctxWatch is the goroutine that raises a Parser's cancellation flag when
// a context ends, that is when its Done channel ctxDone closes (two
// contexts with one Done channel end together).
type ctxWatch struct {
	ctxDone <-chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// cancelFlag returns the cancellation flag that go-tree-sitter gave the C
// parser of ts (its unexported field "cancel", a *uintptr that
// tree-sitter polls while it parses: non-zero stops the parse). The
// version of go-tree-sitter is pinned in go.mod; TestParseCancelled fails
// if the field changes.
func cancelFlag(ts *sitter.Parser) *uintptr {
	f := reflect.ValueOf(ts).Elem().FieldByName("cancel")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.Type().Elem().Kind() != reflect.Uintptr {
		return nil
	}
	return (*uintptr)(unsafe.Pointer(f.Pointer()))
}

// watch makes ctx the context whose end stops p's parses. It returns the
// context to give ParseCtx: one that cannot be cancelled when p watches
// ctx itself, else ctx (go-tree-sitter then watches it per parse).
func (p *Parser) watch(ctx context.Context) context.Context {
	ctxDone := ctx.Done()
	if ctxDone == nil {
		p.unwatch()
		return ctx
	}
	if p.w != nil && p.w.ctxDone == ctxDone {
		return context.Background()
	}
	p.unwatch()
	if p.cancel == nil {
		return ctx
	}
	w := &ctxWatch{ctxDone: ctxDone, stop: make(chan struct{}), done: make(chan struct{})}
	flag := p.cancel
	go func() {
		defer close(w.done)
		select {
		case <-ctxDone:
			atomic.StoreUintptr(flag, 1)
		case <-w.stop:
		}
	}()
	p.w = w
	return context.Background()
}

// unwatch stops the goroutine of watch, if any, and lowers the flag it
// may have raised, so that the next parse runs.
func (p *Parser) unwatch() {
	if p.w == nil {
		return
	}
	close(p.w.stop)
	<-p.w.done
	atomic.StoreUintptr(p.cancel, 0)
	p.w = nil
}
