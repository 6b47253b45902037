package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"sync"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/mcp"
)

// serverGCPercent is the MCP server's GOGC between builds (runMCP).
const serverGCPercent = 25

// mcpConfig is the optional --config file (JSON): which tools to serve.
type mcpConfig struct {
	Allow []string `json:"allow"`
	Deny  []string `json:"deny"`
}

func runMCP(e *env, args []string) error {
	fs := newFlags(e, "mcp")
	addr := fs.String("http", "", "serve streamable HTTP on ADDR (e.g. 127.0.0.1:8765) instead of stdio")
	tokenFile := fs.String("token-file", "", "file holding the bearer token HTTP clients must send (or env WIKITOOLKIT_TOKEN)")
	config := fs.String("config", "", `JSON file {"allow": [tools], "deny": [tools]} restricting the tools served`)
	logFile := fs.String("log-file", "", "append one line per tool call here instead of stderr")
	refresh := fs.Bool("refresh", true, "notice changed files and rebuild the index in the background")
	noWatch := fs.Bool("no-watch", false, "do not watch the files (inotify; where its watches run out, the directories whose files changed last are watched and the tree is checked for the others every few seconds); notice changes only when a tool is called (and 'wikitoolkit build' cannot ask what changed)")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("mcp takes no arguments, got %q", pos)
	}
	var cfg mcpConfig
	if *config != "" {
		b, err := os.ReadFile(*config)
		if err != nil {
			return fmt.Errorf("read --config: %w", err)
		}
		if err := json.Unmarshal(b, &cfg); err != nil {
			return fmt.Errorf(`--config %s: %v (want {"allow": ["wiki_query", ...], "deny": [...]})`, *config, err)
		}
	}
	var logw io.Writer = e.stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("open --log-file: %w", err)
		}
		defer f.Close()
		logw = f
	}
	stopProfile, err := startProfiles(e.stderr)
	if err != nil {
		return err
	}
	defer stopProfile()
	root, indexDir := e.rootAndIndex()
	var buildMu sync.Mutex // one background build per process; the build lock handles other processes
	// Between builds the server's heap is its open generation, whose
	// garbage is a few hundred KB per call: a heap goal of 1.25× the live
	// heap instead of Go's 2× costs a collection every hundred calls or
	// so and keeps RSS near the data (100k files: 236 MB live; RSS after
	// 120 calls 570 MB at GOGC=100, 410-440 MB at 50, 350-375 MB at
	// 25-30). Builds run at the default, which their garbage needs. GOGC
	// set in the environment wins.
	buildGC := -1
	if os.Getenv("GOGC") == "" {
		buildGC = debug.SetGCPercent(serverGCPercent)
		defer debug.SetGCPercent(buildGC)
	}
	opt := mcp.Options{
		IndexDir: indexDir,
		Root:     root,
		Version:  Version,
		Log:      logw,
		Allow:    cfg.Allow,
		Deny:     cfg.Deny,
		Watch:    !*noWatch,
		// The same pipeline as `wikitoolkit build`, with the walk options
		// the index's last build stored.
		Build: func(ctx context.Context) error {
			buildMu.Lock()
			defer buildMu.Unlock()
			if buildGC >= 0 {
				debug.SetGCPercent(buildGC)
				defer debug.SetGCPercent(serverGCPercent)
			}
			_, err := wiki.Build(ctx, wiki.BuildOptions{Root: root, IndexDir: indexDir, Progress: wiki.BuildProgress(ctx)})
			return err
		},
	}
	if !*refresh {
		opt.Build, opt.CheckEvery, opt.Watch = nil, -1, false
	}
	srv, err := mcp.New(opt)
	if err != nil {
		return err
	}
	defer srv.Close()

	if *addr == "" {
		// stdout belongs to JSON-RPC: keep it for the transport and point
		// os.Stdout at stderr, so a stray print cannot corrupt the stream.
		out := e.stdout
		in := e.stdin
		if e.stdout == os.Stdout {
			os.Stdout = os.Stderr
			defer func() { os.Stdout = out.(*os.File) }()
		}
		err := srv.Run(e.ctx, mcp.StdioTransport(in, out))
		if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || e.ctx.Err() != nil) {
			return nil
		}
		return err
	}

	token, err := readToken(*tokenFile)
	if err != nil {
		return err
	}
	h, err := srv.HTTPHandler(*addr, token)
	if err != nil {
		return usagef("%v", err)
	}
	srv.Preload()
	hs := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	fmt.Fprintf(e.stderr, "wikitoolkit: serving MCP over streamable HTTP on http://%s/ (index %s)\n", *addr, indexDir)
	select {
	case err := <-errc:
		return err
	case <-e.ctx.Done():
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return hs.Shutdown(ctx)
	}
}

// startProfiles starts the profiles the environment asks for: a CPU
// profile written to $WIKITOOLKIT_CPUPROFILE, an execution trace (go tool
// trace: which goroutines ran when, for the serial stretches of a build)
// to $WIKITOOLKIT_TRACE, and a heap profile written to
// $WIKITOOLKIT_MEMPROFILE when the command ends (files only, never
// stdout). The returned function stops and writes them.
func startProfiles(stderr io.Writer) (func(), error) {
	cpu, mem := os.Getenv("WIKITOOLKIT_CPUPROFILE"), os.Getenv("WIKITOOLKIT_MEMPROFILE")
	var cpuFile, traceFile *os.File
	if tr := os.Getenv("WIKITOOLKIT_TRACE"); tr != "" {
		f, err := os.Create(tr)
		if err != nil {
			return nil, fmt.Errorf("WIKITOOLKIT_TRACE: %w", err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("WIKITOOLKIT_TRACE: %w", err)
		}
		traceFile = f
	}
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			if traceFile != nil {
				trace.Stop()
				traceFile.Close()
			}
			return nil, fmt.Errorf("WIKITOOLKIT_CPUPROFILE: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			if traceFile != nil {
				trace.Stop()
				traceFile.Close()
			}
			return nil, fmt.Errorf("WIKITOOLKIT_CPUPROFILE: %w", err)
		}
		cpuFile = f
	}
	return func() {
		if traceFile != nil {
			trace.Stop()
			traceFile.Close()
		}
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if mem != "" {
			f, err := os.Create(mem)
			if err != nil {
				fmt.Fprintf(stderr, "wikitoolkit: WIKITOOLKIT_MEMPROFILE: %v\n", err)
				return
			}
			defer f.Close()
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				fmt.Fprintf(stderr, "wikitoolkit: WIKITOOLKIT_MEMPROFILE: %v\n", err)
			}
		}
	}, nil
}

// rootAndIndex returns the repository root and the index directory: from
// --index (the root is then what its last build recorded) or from the
// nearest ancestor holding an index or .git.
func (e *env) rootAndIndex() (root, indexDir string) {
	if e.indexDir != "" {
		indexDir, _ = filepath.Abs(e.indexDir)
		if s, err := graph.OpenSnapshot(indexDir); err == nil {
			root = s.Info().Root
			s.Close()
		}
		if root == "" {
			root = filepath.Dir(indexDir)
		}
		return root, indexDir
	}
	root = findRoot(".")
	return root, filepath.Join(root, graph.IndexDirName)
}

// readToken returns the bearer token of an HTTP server: the content of
// tokenFile when given, else env WIKITOOLKIT_TOKEN ("" when neither).
func readToken(tokenFile string) (string, error) {
	if tokenFile == "" {
		return strings.TrimSpace(os.Getenv("WIKITOOLKIT_TOKEN")), nil
	}
	b, err := os.ReadFile(tokenFile)
	if err != nil {
		return "", fmt.Errorf("read --token-file: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("--token-file %s is empty", tokenFile)
	}
	return token, nil
}
