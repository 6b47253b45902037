package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// Version is the program version, set at link time with -ldflags "-X".
var Version = "dev"

// usageError marks a bad invocation (exit 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// env is what every command gets: streams, the global flags and the context.
type env struct {
	ctx      context.Context
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	indexDir string // from --index or WIKITOOLKIT_INDEX; "" = find it
}

type command struct {
	name    string
	args    string
	summary string
	run     func(e *env, args []string) error
}

var commands []command

func init() {
	commands = []command{
		{"build", "[PATH] [--full] [--quiet] [--json] [--verbose] [--max-file-bytes N] [--exclude-dirs D,...] [--changed P,...|-]", "index a repository (incrementally unless --full)", runBuild},
		{"query", "[--budget N] [--kind K,...] [--focus PATH,...] [--explain] [--json] QUESTION...", "ranked page stubs that fit a token budget", runQuery},
		{"page", "[--json] ID", "show one page: title, doc, source, edges, notes", runPage},
		{"related", "[--rel R] [--direction in|out|both] [--json] ID", "a page's neighbours by edge type", runRelated},
		{"impact", "[--depth N] [--budget N] [--json] (ID | --diff [BASE])", "what a change reaches: referrers by depth, tests, files", runImpact},
		{"check", "[--json] NAME", "run a check configured in .wikitoolkit.json (e.g. tests), no shell", runCheck},
		{"status", "[--json]", "pages, edges, files, languages, skipped files, last build, index size", runStatus},
		{"remember", "[--category C] [--title T] [--link ID] [--rel R] [--json] FACT", "save a memory page (a lasting fact) that queries find", runRemember},
		{"note", "[--json] ID TEXT | --confirm ID [TEXT]", "append a dated note to a page; --confirm marks its notes still true", runNote},
		{"notes", "[--orphans] [--stale] [--json]", "list notes and memories with their state (fresh, stale, moved, orphan)", runNotes},
		{"memory", "export|import [DIR] [--json]", "write all notes and memories to DIR (default .wiki/), or load them from it", runMemory},
		{"search", "[--regex] [-i] [-C N] [-l] [--glob G] [--max N] [--json] PATTERN", "exact text (or RE2) search in the repository's text files", runSearch},
		{"read", "[--json] PATH[:START-END]", "print numbered lines of a file inside the repository", runRead},
		{"mcp", "[--http ADDR] [--token-file F] [--config F] [--log-file F] [--refresh=false] [--no-watch]", "serve the wiki to AI agents over MCP (stdio by default)", runMCP},
		{"web", "[--http ADDR] [--export DIR] [--token-file F] [--refresh=false] [--no-watch]", "browse the wiki in a web browser, or export it as static HTML", runWeb},
		{"install", "[--client claude,vscode,cursor,codex]", "register the MCP server, tool permissions and hook with agent clients", runInstall},
		{"uninstall", "[--client claude,vscode,cursor,codex]", "undo exactly what install did", runUninstall},
		{"hook", "[--debug] [--budget D] claude", "Claude Code PreToolUse hook: adds wiki hits to Grep/Glob/grep calls, never blocks", runHook},
	}
}

const globalUsage = `wikitoolkit turns a repository into a graph of pages (modules, files, symbols,
doc sections, memories) and answers questions with the pages that fit a token budget.

Usage:
  wikitoolkit [--index DIR] COMMAND [flags] [args]

Commands:
%s
Global flags:
  --index DIR   index directory (default: <root>/.wikitoolkit, where <root> is the
                nearest ancestor holding an index or .git; env WIKITOOLKIT_INDEX)

Start with:
  wikitoolkit build            # index the repository you are in
  wikitoolkit query "where are retries configured?"

Run 'wikitoolkit COMMAND --help' for a command's flags.
`

func usageText() string {
	var b strings.Builder
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	return fmt.Sprintf(globalUsage, b.String())
}

// Main runs the command line args (without the program name) and returns
// the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, indexDir: os.Getenv("WIKITOOLKIT_INDEX")}
	fs := flag.NewFlagSet("wikitoolkit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.indexDir, "index", e.indexDir, "index directory")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	version := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "wikitoolkit: %v\n\n%s", err, usageText())
		return 2
	}
	if *version {
		fmt.Fprintln(stdout, "wikitoolkit", Version)
		return 0
	}
	rest := fs.Args()
	if *help || len(rest) == 0 || rest[0] == "help" {
		if len(rest) > 1 && rest[0] == "help" {
			return Main([]string{rest[1], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usageText())
		if len(rest) == 0 && !*help {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == rest[0] {
			return exitCode(stderr, c.run(e, rest[1:]))
		}
	}
	if near := closestCommand(rest[0]); near != "" {
		fmt.Fprintf(stderr, "wikitoolkit: unknown command %q; did you mean %q? (run 'wikitoolkit --help' for the list)\n", rest[0], near)
		return 2
	}
	fmt.Fprintf(stderr, "wikitoolkit: unknown command %q; run 'wikitoolkit --help' for the list\n", rest[0])
	return 2
}

func exitCode(stderr io.Writer, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "wikitoolkit: %s\n", ue.msg)
		return 2
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "wikitoolkit: interrupted; the previous index is intact")
		return 1
	}
	fmt.Fprintf(stderr, "wikitoolkit: %v\n", err)
	return 1
}

// newFlags returns a flag set whose --help prints the command's usage to stdout.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments, and
// turns flag errors into usage errors and --help into printed help.
func parseFlags(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printCommandHelp(e, fs)
				return nil, flag.ErrHelp
			}
			return nil, usagef("%s: %v (see 'wikitoolkit %s --help')", fs.Name(), err, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func printCommandHelp(e *env, fs *flag.FlagSet) {
	for _, c := range commands {
		if c.name == fs.Name() {
			fmt.Fprintf(e.stdout, "Usage: wikitoolkit %s %s\n\n%s.\n", c.name, c.args, upperFirst(c.summary))
			if h, ok := commandHelp[c.name]; ok {
				fmt.Fprintf(e.stdout, "\n%s\n", strings.TrimSpace(h))
			}
		}
	}
	var flags []string
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f.Name) })
	if len(flags) > 0 {
		fmt.Fprintln(e.stdout, "\nFlags:")
		sort.Strings(flags)
		for _, n := range flags {
			f := fs.Lookup(n)
			def := ""
			if f.DefValue != "" && f.DefValue != "false" {
				def = fmt.Sprintf(" (default %s)", f.DefValue)
			}
			dash := "--"
			if len(n) == 1 {
				dash = "-" // a short alias, written as grep users do
			}
			fmt.Fprintf(e.stdout, "  %-18s %s%s\n", dash+n, f.Usage, def)
		}
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// commandHelp holds longer explanations shown by COMMAND --help.
var commandHelp = map[string]string{
	"build": `Walks PATH (default: the repository you are in), honouring .gitignore files,
.git/info/exclude and .wikitoolkitignore; skips binary, generated, minified and
oversized files and vendored folders, and reports each with its reason. Only
added and changed files are reparsed. A killed build leaves the previous index
answering; the next build completes it.

Without --changed a build asks a server watching this index ('wikitoolkit mcp'
or 'web', which watch the files) what changed since the last build that asked,
and updates just that; with no such server, or one that cannot vouch for its
answer (it just started, lost events, an ignore file or git's index changed), it
looks at every file's size and time (on a 100k-file tree about a quarter of a
second; --no-watcher always does). When you know what you
touched — an agent after its edits, an editor's save hook, a script after a
checkout of a few files — name it: --changed a.go,pkg/b.go (or --changed - to
read the paths from stdin, one a line) updates just those paths, added,
modified, deleted or renamed (give both names; a path that no longer exists is a
removal; a directory stands for everything below it), with the same ignore rules
and the same result as a build that walked the tree. Paths are absolute or
relative to the current directory and must lie inside the repository; those
that ignore rules, a vendored folder or an unsupported type leave out are
reported, not indexed. Anything changed that you did not name is found by the
next build without --changed.`,
	"impact": `For a symbol (any page reference 'page' takes; a file or module stands for
its definitions) or for the definitions the working tree changes against HEAD
(--diff) or against BASE (--diff BASE; git diff --unified=0, untracked files
count as added): the pages that reference them, then the pages that reference
those, up to --depth levels, each level capped at 30 shown and counted; the
tests among them listed apart; the files. The answer fits --budget tokens and
says what it left out.`,
	"check": `Runs the check NAME from the "checks" map of .wikitoolkit.json at the
repository root, e.g. {"checks": {"tests": ["go", "test", "./..."],
"lint": {"argv": ["./scripts/lint.sh"], "timeout_seconds": 120}}}: the argv as
written, without a shell, in the repository root, killed after its timeout
(default 10 minutes). The program is a name looked up on PATH or a path inside
the repository. Prints the exit code and the last 64 KB of output; exits 1
when the check fails. Nothing outside the configured list ever runs.`,
	"memory": `Notes and memories live in the index and, as one Markdown file each, in the
repository's .wiki/ folder, which a team commits: every remember, note and
note --confirm writes its file, and build loads new and changed files.
'memory export' writes every entry to DIR (default .wiki/), e.g. for entries
written before the folder existed; 'memory import DIR' loads DIR's files and
copies them into .wiki/. Nothing is ever deleted.`,
	"note": `A note records the page's fingerprint. When a rebuild changes that page's
code, the note shows as possibly stale ("written 2026-11-02; the code changed
2026-11-20") until someone confirms it: 'note --confirm ID' re-anchors the
page's notes and linked memories to the current code. A note whose page is
gone is kept as an orphan ('notes --orphans') and re-attaches if the page
returns; a note on a renamed or moved symbol follows it.`,
	"web": `Serves the wiki as web pages for people, from the live index (the same
view 'wikitoolkit mcp' serves, refreshed the same way): the home page (modules,
languages, most referenced files, notes, memories, last build), a page per
module, file, symbol, doc section and memory with highlighted source and its
links, a picture of the graph around each page, search (ranked as wiki_query
ranks) and forms to add notes and memories. It listens on 127.0.0.1:8766 by
default and prints the URL; --http 127.0.0.1:0 picks a free port. A
non-loopback address needs a token (--token-file or WIKITOOLKIT_TOKEN) that
every request carries: "Authorization: Bearer TOKEN", or open any page once
with ?token=TOKEN in a browser. --export DIR writes the same pages as static
HTML with relative links (no search, no forms) into a new or empty DIR, or
over a previous export.`,
	"query": `QUESTION may be plain words, an identifier (parseConfig, pkg.Func,
Class.method), a path (engine/rank.go:42) or a pasted stack trace. Results are
page stubs with IDs; pass an ID to 'wikitoolkit page' or 'wikitoolkit related'.`,
}

// findRoot returns the nearest ancestor of start holding an index or a .git.
func findRoot(start string) string {
	abs, err := filepath.Abs(start)
	if err != nil {
		return start
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, graph.IndexDirName, "CURRENT")); err == nil {
			return d
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		d = parent
	}
}

// indexPath returns the index directory for commands that read an index.
func (e *env) indexPath() string {
	if e.indexDir != "" {
		return e.indexDir
	}
	return filepath.Join(findRoot("."), graph.IndexDirName)
}

// openSnapshot opens the live index, with errors that say what to do.
func (e *env) openSnapshot() (*graph.Snapshot, error) {
	dir := e.indexPath()
	s, err := graph.OpenSnapshot(dir)
	if errors.Is(err, graph.ErrNoIndex) {
		return nil, fmt.Errorf("no index in %s; run 'wikitoolkit build' in the repository first (or pass --index DIR)", dir)
	}
	return s, err
}

// openWithAuthored opens the live index and its notes and memories.
func (e *env) openWithAuthored() (*graph.Snapshot, *annotate.Annotations, error) {
	snap, err := e.openSnapshot()
	if err != nil {
		return nil, nil, err
	}
	a, err := annotate.Load(snap.Dir)
	if err != nil {
		snap.Close()
		return nil, nil, err
	}
	return snap, a, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
