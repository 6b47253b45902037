package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// MaxAnswerTokens bounds every tool answer (text plus structured content).
const MaxAnswerTokens = 20000

// maxTextTokens bounds the readable text of one answer; the structured
// content carries the same facts, so the two together stay under
// MaxAnswerTokens.
const maxTextTokens = MaxAnswerTokens / 2

// Options configure a Server. Only IndexDir is required.
type Options struct {
	// IndexDir is the index directory (<root>/.wikitoolkit).
	IndexDir string
	// Root is the repository root; "" means the root recorded by the last
	// build, or the parent of IndexDir.
	Root string
	// Version is reported to clients.
	Version string
	// Build runs an incremental build of the index; the server calls it in
	// the background when files changed or no index exists. nil disables
	// automatic refresh.
	Build func(ctx context.Context) error
	// Walk are the build's walk options, used by the freshness check
	// (unset: those stored with the index, see wiki.LiveOptions.Walk).
	// wiki_search walks with the same ignore rules but every text file.
	Walk walk.Options
	// CheckEvery is the least time between two freshness checks; 0 means
	// 3 s, negative disables them.
	CheckEvery time.Duration
	// Watch notices saved files at once, without waiting for a call
	// (wiki.LiveOptions.Watch); `wikitoolkit mcp` sets it unless --no-watch.
	Watch bool
	// Log receives one line per tool call (tool, argument and result sizes,
	// status, milliseconds; never contents). nil discards.
	Log io.Writer
	// Allow, when non-empty, lists the only tools served; Deny lists tools
	// never served. Names as in ToolNames.
	Allow, Deny []string
}

// ToolNames lists every tool a Server can serve.
var ToolNames = []string{"wiki_query", "wiki_page", "wiki_related", "wiki_status", "wiki_remember", "wiki_note", "wiki_search", "wiki_read", "wiki_impact", "wiki_check"}

// Server serves one index. Create it with New; it is safe for concurrent use
// by any number of sessions.
type Server struct {
	opt   Options
	dir   string
	sdk   *sdk.Server
	live  *wiki.Live
	logMu sync.Mutex
}

// New returns a Server for the index in opt.IndexDir. The index need not
// exist yet: tools then say so (and a build starts when opt.Build is set).
func New(opt Options) (*Server, error) {
	if opt.IndexDir == "" {
		return nil, errors.New("mcp: no index directory")
	}
	dir, err := filepath.Abs(opt.IndexDir)
	if err != nil {
		return nil, err
	}
	for _, n := range slices.Concat(opt.Allow, opt.Deny) {
		if !slices.Contains(ToolNames, n) {
			return nil, fmt.Errorf("unknown tool %q in the allow/deny lists (tools: %v)", n, ToolNames)
		}
	}
	s := &Server{opt: opt, dir: dir}
	s.live, err = wiki.NewLive(wiki.LiveOptions{IndexDir: dir, Root: opt.Root, Build: opt.Build, Walk: opt.Walk, CheckEvery: opt.CheckEvery, Watch: opt.Watch, Logf: s.logf})
	if err != nil {
		return nil, err
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "wikitoolkit", Version: opt.Version}, &sdk.ServerOptions{
		Instructions: instructions,
		Capabilities: &sdk.ServerCapabilities{},
	})
	s.sdk.AddReceivingMiddleware(s.logCalls)
	s.addTools()
	s.addResources()
	return s, nil
}

const instructions = `wikitoolkit indexes this repository as a wiki of pages (modules, files, symbols, doc sections, memories). ` +
	`Call wiki_query first for any question about the code, then wiki_page/wiki_related with its IDs; ` +
	`use wiki_search and wiki_read instead of grep/find/cat. Sub-agents should do the same.`

// SDK returns the underlying go-sdk server (for transports).
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Run serves one session on t until the client disconnects or ctx ends.
// The index starts opening at once (wiki.Live.Preload).
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	s.live.Preload()
	return s.sdk.Run(ctx, t)
}

// Close stops background work and releases the open generation. Calls in
// flight finish first.
func (s *Server) Close() error { return s.live.Close() }

// Preload starts opening the index in the background (wiki.Live.Preload);
// Run does it, HTTP servers call it before serving.
func (s *Server) Preload() { s.live.Preload() }

func (s *Server) allowed(name string) bool {
	if slices.Contains(s.opt.Deny, name) {
		return false
	}
	return len(s.opt.Allow) == 0 || slices.Contains(s.opt.Allow, name)
}

func (s *Server) logf(format string, a ...any) {
	if s.opt.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opt.Log, "%s %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, a...))
}

// logCalls is receiving middleware: one line per tools/call with sizes,
// status and duration, never contents.
func (s *Server) logCalls(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		// A panic anywhere in a request (ours or the SDK's) must not end
		// the process: it becomes a JSON-RPC internal error.
		defer func() {
			if r := recover(); r != nil {
				s.logf("panic in %s: %v\n%s", method, r, debug.Stack())
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("internal error: %v", r)}
			}
		}()
		if method != "tools/call" || s.opt.Log == nil {
			return next(ctx, method, req)
		}
		start := time.Now()
		name, argBytes := "?", 0
		if p, ok := req.GetParams().(*sdk.CallToolParamsRaw); ok && p != nil {
			name, argBytes = p.Name, len(p.Arguments)
		}
		res, err = next(ctx, method, req)
		status, resBytes := "ok", 0
		switch r := res.(type) {
		case *sdk.CallToolResult:
			if r == nil {
				break
			}
			if r.IsError {
				status = "tool-error"
			}
			resBytes = resultBytes(r)
		}
		if err != nil {
			status = "protocol-error"
		}
		s.logf("tool=%s args=%dB result=%dB status=%s ms=%.1f", name, argBytes, resBytes, status, float64(time.Since(start).Microseconds())/1000)
		return res, err
	}
}

func resultBytes(r *sdk.CallToolResult) int {
	n := 0
	for _, c := range r.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			n += len(t.Text)
		}
	}
	if raw, ok := r.StructuredContent.(json.RawMessage); ok {
		n += len(raw)
	}
	return n
}

// call is what a tool handler gets: the request context's generation (nil
// for tools that do not need one) and authored data.
type call struct {
	s *Server
	g *wiki.Gen
}

// toolFunc is a typed tool body: it returns the readable text and the
// structured output, or an error the model can act on.
type toolFunc[In, Out any] func(ctx context.Context, c *call, in In) (string, Out, error)

// addTool registers a tool with a typed input (schema inferred from In's
// json and jsonschema tags, then adjusted by tune; arguments checked by
// argsChecker), annotations, a typed output sent as structured content,
// panic recovery and generation management.
func addTool[In, Out any](s *Server, t *sdk.Tool, needIndex bool, tune func(props map[string]*schema), fn toolFunc[In, Out]) {
	if !s.allowed(t.Name) {
		return
	}
	in, err := inputSchema[In](tune)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err)) // programming error, caught by the registration test
	}
	args, err := newArgsChecker(t.Name, in)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err))
	}
	t.InputSchema = in
	t.Annotations = annotations(t.Name)
	// No output schema in tools/list (see schema.go).
	s.sdk.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		// A fault on an index file's mmap (truncated under the server
		// after Verify) becomes a panic recovered below, not a crash.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				s.logf("panic in %s: %v\n%s", t.Name, r, debug.Stack())
				res, err = toolError(fmt.Errorf("internal error in %s (%v); this is a wikitoolkit bug — try other arguments or use wiki_search/wiki_read meanwhile", t.Name, r)), nil
			}
		}()
		var input In
		if err := args.decode(req.Params.Arguments, &input); err != nil {
			return toolError(err), nil
		}
		c := &call{s: s}
		defer s.live.Call()() // ends after release: background walks of the tree wait for it
		if needIndex {
			if t.Name != "wiki_status" {
				s.live.WaitFirstBuild(ctx)
			}
			g, release, err := s.live.Acquire()
			if err != nil {
				return toolError(err), nil
			}
			defer release()
			c.g = g
		}
		text, o, err := fn(ctx, c, input)
		if err != nil {
			return toolError(err), nil
		}
		res = &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: clipTokens(text, maxTextTokens)}}}
		if b, err := json.Marshal(o); err != nil {
			return nil, fmt.Errorf("marshaling the %s answer: %w", t.Name, err)
		} else if string(b) != "null" {
			res.StructuredContent = json.RawMessage(b)
		}
		return res, nil
	})
}

// toolError is a tool result the model reads: isError with the message.
func toolError(err error) *sdk.CallToolResult {
	r := &sdk.CallToolResult{}
	r.SetError(err)
	return r
}

// clipTokens cuts text to at most max tokens, saying so.
func clipTokens(text string, max int) string {
	if engine.CountTokens(text) <= max {
		return text
	}
	const note = "\n… (answer cut to fit the token limit; ask for less, e.g. a smaller line range or max_results)\n"
	lo, hi := 0, len(text)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if engine.CountTokens(text[:mid])+engine.CountTokens(note) <= max {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return strings.ToValidUTF8(text[:lo], "") + note
}

func (s *Server) authoredData() (*annotate.Annotations, error) { return s.live.Annotations() }

func (s *Server) addTools() {
	s.addQuery()
	s.addPage()
	s.addRelated()
	s.addStatus()
	s.addRemember()
	s.addNote()
	s.addSearch()
	s.addRead()
	s.addImpact()
	// wiki_check is off until the project configures a check (or the
	// allow list names it, so that it can say how): one tool less in every
	// tools/list of a project that has none. The list is fixed when the
	// server starts.
	if cfg, err := wiki.LoadProjectConfig(s.live.RootNoIndex()); err != nil || len(cfg.Checks) > 0 || slices.Contains(s.opt.Allow, "wiki_check") {
		s.addCheck()
	}
}
