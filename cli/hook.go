package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// hookBudget is the time the hook may take before it answers without
// hits: Claude Code waits for PreToolUse hooks before running the tool, so
// the hook must cost less than the search it shadows. An identifier is
// answered from the name index: on the moby index, hits in about 50 ms
// wall with the process's start (a 2-core VM). Words that are not
// identifiers need the ranking index, whose loading there takes longer
// than this budget (so they get the nudge without hits); on small
// repositories the hook answers with hits in ~7 ms. With an MCP server
// watching the index (as while an agent works), the server answers from
// the ranking index it holds: hits in 20–40 ms wall of the hook's process
// on a 100k-file tree.
const hookBudget = 30 * time.Millisecond

// maxHookLogBytes caps hook.log; the previous log is kept as hook.log.1.
const maxHookLogBytes = 256 << 10

// hookEvent is the part of Claude Code's PreToolUse event the hook reads.
type hookEvent struct {
	HookEventName string `json:"hook_event_name"`
	ToolName      string `json:"tool_name"`
	Cwd           string `json:"cwd"`
	ToolInput     struct {
		Pattern string `json:"pattern"`
		Command string `json:"command"`
		Path    string `json:"path"`
		Glob    string `json:"glob"`
	} `json:"tool_input"`
}

type hookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// runHook never fails: Claude Code reads exit 2 as "block this tool call",
// so whatever goes wrong (bad usage, no index, a damaged one, a bug, a
// panic) it exits 0 and lets the tool run. With --debug it says on stderr
// what went wrong; otherwise it is silent there.
func runHook(e *env, args []string) (err error) {
	start := time.Now()
	fs := newFlags(e, "hook")
	debug := fs.Bool("debug", false, "report internal errors on stderr (they never change the exit code)")
	budget := fs.Duration("budget", hookBudget, "time to find hits before answering with the tip alone")
	pos, err := parseFlags(e, fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return err // help printed; exit 0
	}
	debugf := func(format string, a ...any) {
		if *debug {
			fmt.Fprintf(e.stderr, "wikitoolkit hook: "+format+"\n", a...)
		}
	}
	defer func() {
		// Never block the agent's tool on a bug here.
		if r := recover(); r != nil {
			debugf("internal error: %v", r)
		}
		err = nil
	}()
	if err != nil || len(pos) != 1 || pos[0] != "claude" {
		// Exit 0 even so: a mistyped hook command must not block every tool call.
		fmt.Fprintln(e.stderr, "wikitoolkit: usage: wikitoolkit hook [--debug] [--budget D] claude (reads a Claude Code PreToolUse event on stdin)")
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
	if err != nil {
		debugf("read the event: %v", err)
		return nil
	}
	var ev hookEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		debugf("the event is not JSON: %v", err)
		return nil
	}
	query, kind := hookQuery(&ev)
	if kind == "" {
		debugf("%s call is not a search; the index was not opened", ev.ToolName)
		return nil
	}
	cwd := ev.Cwd
	if cwd == "" {
		cwd = "."
	}
	indexDir := e.indexDir
	if indexDir == "" {
		indexDir = filepath.Join(findRoot(cwd), graph.IndexDirName)
	}
	if _, err := os.Stat(filepath.Join(indexDir, "CURRENT")); err != nil {
		debugf("no index: %v", err)
		return nil // no index here: say nothing
	}

	done := make(chan hookHits, 1)
	if query != "" {
		ctx, cancel := context.WithDeadline(e.ctx, start.Add(*budget))
		defer cancel()
		go func() {
			defer func() {
				if r := recover(); r != nil {
					done <- hookHits{err: fmt.Errorf("internal error: %v", r)}
				}
			}()
			done <- hookAnswer(ctx, indexDir, query)
		}()
	}
	var ans hookHits
	timer := time.NewTimer(*budget - time.Since(start))
	defer timer.Stop()
	if query != "" {
		select {
		case ans = <-done:
			if ans.err != nil {
				debugf("%v", ans.err)
			}
			if ans.server {
				debugf("%d hits from the server watching the index", ans.hits)
			}
			if ans.names {
				debugf("%d hits from the name index", ans.hits)
			}
			if ans.nameErr != nil {
				debugf("the name index: %v (the ranking index answered)", ans.nameErr)
			}
		case <-timer.C:
			debugf("no hits within %s; answering with the tip alone", *budget)
		}
	}
	recordHookEvent(indexDir, ev.ToolName, kind, ans.hits, time.Since(start))

	var ctx strings.Builder
	if ans.hits > 0 {
		fmt.Fprintf(&ctx, "wikitoolkit index: top pages for %q (IDs work with the wiki_page and wiki_related MCP tools):\n%s", query, ans.text)
	}
	ctx.WriteString("Tip: this repository has a wikitoolkit index; wiki_query (ranked) and wiki_search (exact text) answer this faster and in fewer tokens than " + ev.ToolName + ".")
	var out hookOutput
	out.HookSpecificOutput.HookEventName = "PreToolUse"
	out.HookSpecificOutput.AdditionalContext = ctx.String()
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(out)
	return nil
}

// hookHits is the hook's answer: rendered stubs, their count, and what
// went wrong (for --debug).
type hookHits struct {
	text    string
	hits    int
	err     error
	server  bool  // answered by the server watching the index
	names   bool  // answered from the name index
	nameErr error // the name index could not be read (the ranking index answered)
}

// hookAnswer runs the query on the index: the top 5 stubs within 400
// tokens (wiki.HookHits). A server watching the index answers from the
// ranking index it holds (wiki.AskHook: at 100k files a few milliseconds,
// where loading it here would take seconds); without one the hook reads
// the index itself.
func hookAnswer(ctx context.Context, indexDir, q string) (a hookHits) {
	if text, hits, err := wiki.AskHook(ctx, indexDir, q); err == nil {
		return hookHits{text: text, hits: hits, server: true}
	}
	snap, err := graph.OpenSnapshot(indexDir)
	if err != nil {
		a.err = err
		return a
	}
	defer snap.Close()
	// An identifier-like pattern is answered from the small name index:
	// loading the whole ranking index of a large repository costs more
	// than the hook's budget.
	if words := strings.Fields(q); len(words) <= 3 {
		names, err := engine.LoadNames(snap)
		if err != nil {
			a.nameErr = err
		} else if hits := names.Lookup(words, 5); len(hits) > 0 {
			var b strings.Builder
			for _, h := range hits {
				fmt.Fprintf(&b, "%s :%d\n", h.ID, h.Line)
			}
			a.text, a.hits, a.names = b.String(), len(hits), true
			return a
		}
	}
	ix, err := engine.Load(snap)
	if err != nil {
		a.err = err
		return a
	}
	au, err := annotate.Load(indexDir)
	if err != nil {
		au = nil
	}
	a.text, a.hits, a.err = wiki.HookHits(ctx, ix, au, q)
	return a
}

var (
	reRegexEscape = regexp.MustCompile(`\\[a-zA-Z]`)
	reNonWord     = regexp.MustCompile(`[^\w./:-]+`)
	searchCmds    = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true, "git": true, "find": true, "fd": true}
)

// hookQuery turns a search tool call into a wiki question and names the
// kind of search ("" when the call is not a search).
func hookQuery(ev *hookEvent) (query, kind string) {
	switch ev.ToolName {
	case "Grep":
		return regexWords(ev.ToolInput.Pattern), "grep"
	case "Glob":
		return globWords(ev.ToolInput.Pattern), "glob"
	case "Bash":
		return bashSearch(ev.ToolInput.Command)
	}
	return "", ""
}

func regexWords(p string) string {
	p = reRegexEscape.ReplaceAllString(p, " ")
	return strings.Join(strings.Fields(reNonWord.ReplaceAllString(p, " ")), " ")
}

func globWords(g string) string {
	base := path.Base(g)
	base = strings.TrimSuffix(base, path.Ext(base))
	w := strings.Join(strings.Fields(strings.NewReplacer("*", " ", "?", " ", "{", " ", "}", " ", ",", " ", "[", " ", "]", " ").Replace(base)), " ")
	if len(w) < 3 {
		return ""
	}
	return w
}

// bashSearch finds a grep/rg/find in a shell command and returns its pattern.
func bashSearch(cmd string) (string, string) {
	for _, seg := range regexp.MustCompile(`\|\||&&|[|;]`).Split(cmd, -1) {
		words := shellWords(seg)
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:] // VAR=value prefixes
		}
		if len(words) == 0 {
			continue
		}
		name := path.Base(words[0])
		if !searchCmds[name] {
			continue
		}
		args := words[1:]
		if name == "git" {
			if len(args) == 0 || args[0] != "grep" {
				continue
			}
			name, args = "grep", args[1:]
		}
		if name == "find" || name == "fd" {
			for i, a := range args {
				if (a == "-name" || a == "-iname" || a == "-path" || a == "-ipath" || a == "-regex") && i+1 < len(args) {
					return globWords(args[i+1]), "find"
				}
			}
			if name == "fd" {
				for _, a := range args {
					if !strings.HasPrefix(a, "-") {
						return regexWords(a), "find"
					}
				}
			}
			return "", "find"
		}
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "-e" || a == "--regexp" {
				if i+1 < len(args) {
					return regexWords(args[i+1]), "grep"
				}
				continue
			}
			if strings.HasPrefix(a, "-") {
				if takesValue(name, a) {
					i++
				}
				continue
			}
			return regexWords(a), "grep"
		}
		return "", "grep"
	}
	return "", ""
}

func takesValue(cmd, flag string) bool {
	switch flag {
	case "-A", "-B", "-C", "-m", "-f", "--include", "--exclude", "--exclude-dir", "-g", "--glob", "-t", "--type", "-T", "--type-not", "--max-count", "--context":
		return true
	}
	return false
}

// shellWords splits a command into words, honouring single and double quotes.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// recordHookEvent appends one JSON line to <index>/hook.log (no patterns,
// no contents), rotating the log at maxHookLogBytes.
func recordHookEvent(indexDir, tool, kind string, hits int, took time.Duration) {
	p := filepath.Join(indexDir, wiki.HookLogName)
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxHookLogBytes {
		os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	line, _ := json.Marshal(map[string]any{"time": time.Now().UTC().Format(time.RFC3339), "tool": tool, "kind": kind, "hits": hits,
		"ms": took.Milliseconds()})
	f.Write(append(line, '\n'))
}
