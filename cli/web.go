package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/mcp"
	"github.com/wikitoolkit/wikitoolkit/web"
)

// defaultWebAddr is where `wikitoolkit web` listens unless told.
const defaultWebAddr = "127.0.0.1:8766"

func runWeb(e *env, args []string) error {
	fs := newFlags(e, "web")
	addr := fs.String("http", defaultWebAddr, "listen on ADDR; a non-loopback address needs a token (port 0 picks a free one)")
	export := fs.String("export", "", "write the wiki as static HTML into DIR instead of serving it")
	tokenFile := fs.String("token-file", "", "file holding the token every request must carry (or env WIKITOOLKIT_TOKEN)")
	refresh := fs.Bool("refresh", true, "notice changed files and rebuild the index in the background")
	noWatch := fs.Bool("no-watch", false, "do not watch the files (inotify); notice changes only when a page is asked (and 'wikitoolkit build' cannot ask what changed)")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	stopProfile, err := startProfiles(e.stderr)
	if err != nil {
		return err
	}
	defer stopProfile()
	if len(pos) > 0 {
		return usagef("web takes no arguments, got %q (see 'wikitoolkit web --help')", pos)
	}
	token, err := readToken(*tokenFile)
	if err != nil {
		return err
	}
	if *export == "" && token == "" && !mcp.IsLoopback(*addr) {
		return usagef("serving on the non-loopback address %s needs a token: --token-file FILE or WIKITOOLKIT_TOKEN (or serve on 127.0.0.1)", *addr)
	}
	root, indexDir := e.rootAndIndex()
	var buildMu sync.Mutex
	opt := web.Options{IndexDir: indexDir, Root: root, Addr: *addr, Token: token, Watch: !*noWatch,
		Logf: func(format string, a ...any) { fmt.Fprintf(e.stderr, "wikitoolkit: "+format+"\n", a...) },
		// The same pipeline as `wikitoolkit build`, as `mcp` runs it.
		Build: func(ctx context.Context) error {
			buildMu.Lock()
			defer buildMu.Unlock()
			_, err := wiki.Build(ctx, wiki.BuildOptions{Root: root, IndexDir: indexDir, Progress: wiki.BuildProgress(ctx)})
			return err
		},
	}
	if !*refresh || *export != "" {
		opt.Build, opt.CheckEvery, opt.Watch = nil, -1, false
	}
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	defer srv.Close()

	if *export != "" {
		res, err := srv.Export(e.ctx, *export)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wikitoolkit: exported %d pages (%d files, %s) to %s; open %s/index.html\n", res.Pages, res.Files, wiki.HumanBytes(res.Bytes), res.Dir, res.Dir)
		return nil
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (another program may use the port: pick one with --http 127.0.0.1:PORT, or port 0 for a free one)", *addr, err)
	}
	// The live generation opened meanwhile, as `mcp` does: the first page
	// does not wait for the ranking index (at 100k files about 1.5 s).
	srv.Live().Preload()
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/"
	if token != "" {
		url += " (token needed: open it once with ?token=TOKEN)"
	}
	fmt.Fprintf(e.stderr, "wikitoolkit: serving the wiki on %s (index %s)\n", url, indexDir)
	select {
	case err := <-errc:
		return err
	case <-e.ctx.Done():
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return hs.Shutdown(ctx)
	}
}
