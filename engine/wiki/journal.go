package wiki

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// The watcher's journal: what a build in another process asks a running
// server instead of looking at every file (git's core.fsmonitor).
//
// A build without a watcher finds what changed by a stat of every
// directory and indexed file (walk.Sketch.Since): at 100k files 175k
// system calls, 0.26–0.3 s of a one-file edit's 0.3 s, the kernel's path
// lookup most of it — the floor of a walk. A server that watches the tree
// knows already: its watcher numbers the paths of the events it takes
// (journal.note) once every directory of the tree is watched (a check of
// the whole tree that added no watch: journal.start), and answers on a
// Unix socket in the index folder (watch.sock) which paths changed since a
// token it gave before. `wikitoolkit build` asks it (BuildOptions.
// AskWatcher), builds just those paths (graph.BuildOptions.Changed: 60 ms
// at 100k files) and keeps the token it was given before building
// (watch-token) for the next build; when no server answers, or it cannot
// vouch, the build walks as before and keeps the token all the same.
//
// What makes the answer whole:
//   - A token is "EPOCH:SEQ". The epoch is new whenever the watcher may
//     have missed a change — events overflowed, a watch could not be
//     added, an ignore file changed (its rules reach paths no event
//     names), polling, other walk options, the server restarted — and a
//     token of another epoch is answered "walk". Entries past
//     maxJournal are dropped, and tokens before them answered "walk".
//   - A directory the watcher starts watching after the epoch began is
//     noted as it is (files made in it before its watch have no event): a
//     build walks it whole.
//   - Before it answers, the server makes a file in the index folder (a
//     cookie) and waits for its event: the events of one inotify instance
//     come in order, so every change made before the question has been
//     noted when the cookie's event comes.
//   - What no event in the tree tells — .git/info/exclude and the git
//     index, read by the walk — is stamped in watch-token; a build that
//     finds them moved walks. A change of a symbolic link's target makes
//     no event at the link: watch-token keeps the tree's file links
//     (graph.BuildInfo.Links) and every build looks at them again (as a
//     sketch's Since does); a link to a directory (below it a change
//     makes no event where the server watches) has every build walk
//     until it is gone. A watched directory renamed (its watches would
//     report events under the old name) ends the epoch; a directory made
//     is watched at once, with those already below it, before the
//     journal names it (watchNewDir), and one removed is forgotten, so
//     that one made again under its name is watched again.
//   - The watcher and the build must read the same files: the answer
//     names the server's root and walk options, and a build with others
//     walks.

const (
	watchSockName  = "watch.sock"
	watchTokenName = "watch-token"
	cookiePrefix   = "watch-cookie-"
	// maxJournal is the most paths the journal keeps.
	maxJournal = 20000
	// cookieWait bounds the wait for a cookie's event; askWait the whole
	// question of a build.
	cookieWait = time.Second
	askWait    = 3 * time.Second
	// maxAskBytes bounds a question.
	maxAskBytes = 4 << 10
)

// journal is a watcher's numbered record of the paths its events named.
type journal struct {
	mu      sync.Mutex
	epoch   string // "" while the watcher cannot vouch for every change
	root    string // absolute, of the epoch
	options string // walk.Options.OptionsKey of the epoch
	seq     int64
	floor   int64 // the seq before the oldest entry kept
	ents    []journalEntry
	cookies map[string]chan struct{}
	nCookie int
}

type journalEntry struct {
	seq  int64
	path string
}

// start begins an epoch (unless one runs with the same root and options):
// from now on every change is noted.
func (j *journal) start(root, options string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.epoch != "" && j.root == root && j.options == options {
		return
	}
	var b [8]byte
	rand.Read(b[:])
	j.epoch, j.root, j.options = hex.EncodeToString(b[:]), root, options
	j.ents, j.floor = nil, j.seq
}

// optionsMoved reports an epoch of walk options other than options.
func (j *journal) optionsMoved(options string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.epoch != "" && j.options != options
}

// lose ends the epoch: a change may have gone unnoted.
func (j *journal) lose() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.epoch, j.ents = "", nil
}

// note records the repo-relative path rel.
func (j *journal) note(rel string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.epoch == "" {
		return
	}
	j.seq++
	j.ents = append(j.ents, journalEntry{j.seq, rel})
	if len(j.ents) > maxJournal {
		drop := len(j.ents) - maxJournal/2
		j.floor = j.ents[drop-1].seq
		j.ents = slices.Delete(j.ents, 0, drop)
	}
}

// watchAnswer is the server's answer to a build's question.
type watchAnswer struct {
	Token   string   `json:"token,omitempty"` // the journal now, for the next question ("" when it cannot vouch)
	Root    string   `json:"root,omitempty"`
	Options string   `json:"options,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	Walk    string   `json:"walk,omitempty"` // why the build must walk ("" when Paths is the answer)
}

// since answers the question "what changed since token tok".
func (j *journal) since(tok string) watchAnswer {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.epoch == "" {
		return watchAnswer{Walk: "the server's watcher does not vouch for every change now (not every directory watched yet, events lost, or polling)"}
	}
	ans := watchAnswer{Token: j.epoch + ":" + strconv.FormatInt(j.seq, 10), Root: j.root, Options: j.options}
	ep, n, ok := strings.Cut(tok, ":")
	seq, err := strconv.ParseInt(n, 10, 64)
	switch {
	case tok == "":
		ans.Walk = "no token"
	case !ok || err != nil || ep != j.epoch:
		ans.Walk = "the token is of another watcher, or of one that lost events since"
	case seq < j.floor || seq > j.seq:
		ans.Walk = "the token is older than what the journal keeps"
	default:
		set := map[string]bool{}
		for i := len(j.ents) - 1; i >= 0 && j.ents[i].seq > seq; i-- {
			set[j.ents[i].path] = true
		}
		ans.Paths = make([]string, 0, len(set))
		for p := range set {
			ans.Paths = append(ans.Paths, p)
		}
		slices.Sort(ans.Paths)
	}
	return ans
}

// cookieFor registers a new cookie name and the channel its event closes.
func (j *journal) cookieFor() (string, chan struct{}) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.cookies == nil {
		j.cookies = map[string]chan struct{}{}
	}
	j.nCookie++
	name := cookiePrefix + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(j.nCookie)
	ch := make(chan struct{})
	j.cookies[name] = ch
	return name, ch
}

// cookieSeen says the event of cookie name came.
func (j *journal) cookieSeen(name string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if ch := j.cookies[name]; ch != nil {
		close(ch)
		delete(j.cookies, name)
	}
}

func (j *journal) dropCookie(name string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.cookies, name)
}

// answer answers a question: once every event before it is noted (the
// cookie), the journal since tok.
func (w *watcher) answer(tok string) watchAnswer {
	dir := w.s.dir
	if !w.cookieWatched.Load() {
		return watchAnswer{Walk: "the server does not watch its index folder yet"}
	}
	if a := w.journal.since(tok); a.Token == "" {
		return a // no epoch: no need to wait for the events (its checks may be walking the tree)
	}
	name, ch := w.journal.cookieFor()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		w.journal.dropCookie(name)
		return watchAnswer{Walk: "the server cannot write in its index folder (" + err.Error() + ")"}
	}
	defer os.Remove(p)
	select {
	case <-ch:
	case <-time.After(cookieWait):
		w.journal.dropCookie(name)
		return watchAnswer{Walk: "the server's watcher did not see its own file within " + cookieWait.String()}
	}
	return w.journal.since(tok)
}

// serveJournal answers builds' questions on the index folder's socket
// until ctx ends. It does not when another server answers there already,
// or when the socket cannot be made (a path too long for one: builds then
// walk).
func (w *watcher) serveJournal(ctx context.Context) {
	for { // the index folder is made by the first build
		if _, err := os.Stat(w.s.dir); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
	sock := filepath.Join(w.s.dir, watchSockName)
	if c, err := net.DialTimeout("unix", sock, 200*time.Millisecond); err == nil {
		c.Close() // another server of this index answers
		return
	}
	os.Remove(sock) // a dead server's
	ln, err := net.Listen("unix", sock)
	if err != nil {
		if _, serr := os.Stat(w.s.dir); serr == nil {
			w.s.logf("watching: builds cannot ask this server what changed (%v); they look at every file instead", err)
		}
		return
	}
	os.Chmod(sock, 0o600)
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	defer func() {
		// Only ours: another server may have taken the name since.
		if fi, err := os.Stat(sock); err == nil && fi.Mode()&os.ModeSocket != 0 {
			if c, err := net.DialTimeout("unix", sock, 100*time.Millisecond); err != nil {
				os.Remove(sock)
			} else {
				c.Close()
			}
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				ln.Close()
				return
			}
			time.Sleep(10 * time.Millisecond) // out of descriptors, say: not a busy loop
			continue
		}
		wg.Go(func() {
			defer c.Close()
			c.SetDeadline(time.Now().Add(askWait))
			var q struct {
				Since string `json:"since"`
				Query string `json:"query"` // the hook's question (AskHook)
			}
			line, err := bufio.NewReader(io.LimitReader(c, maxAskBytes)).ReadBytes('\n')
			if err != nil || json.Unmarshal(line, &q) != nil {
				json.NewEncoder(c).Encode(watchAnswer{Walk: "a question the server could not read"})
				return
			}
			if q.Query != "" {
				json.NewEncoder(c).Encode(w.hookAnswer(ctx, q.Query))
				return
			}
			json.NewEncoder(c).Encode(w.answer(q.Since))
		})
	}
}

// askWatcher asks the server watching the index in indexDir what changed
// since token tok ("": only its token now). An error when no server
// answers.
func askWatcher(ctx context.Context, indexDir, tok string) (*watchAnswer, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, askWait)
	defer cancel()
	c, err := d.DialContext(dctx, "unix", filepath.Join(indexDir, watchSockName))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if dl, ok := dctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	b, _ := json.Marshal(map[string]string{"since": tok})
	if _, err := c.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	var ans watchAnswer
	if err := json.NewDecoder(c).Decode(&ans); err != nil {
		return nil, fmt.Errorf("the watching server's answer: %w", err)
	}
	return &ans, nil
}

// watchToken is what a build keeps of the journal (watch-token): the
// token it was given before it looked at the tree, the generation it
// left, and the stamps of what the walk reads that no event in the tree
// tells.
type watchToken struct {
	Token      string `json:"token"`
	Generation int    `json:"generation"`
	Git        string `json:"git"`
	// Links are the symbolic links to files in the tree: a change of a
	// link's target makes no event at the link, so every build looks at
	// them again (as a walk's sketch has them looked at every time).
	Links []string `json:"links,omitempty"`
	// DirLinks says the build met a symbolic link to a directory: no
	// token holds (below it a change makes no event anywhere watched).
	DirLinks bool `json:"dir_links,omitempty"`
}

// gitStamps stamps the git files the walk reads outside the watched
// tree; ok false when the repository's git folder is not root/.git (a
// worktree or submodule: the build walks).
func gitStamps(root string) (string, bool) {
	gd := filepath.Join(root, ".git")
	fi, err := os.Lstat(gd)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no git", true
	case err != nil || !fi.IsDir():
		return "", false
	}
	var b strings.Builder
	for _, f := range []string{"index", filepath.Join("info", "exclude")} {
		if fi, err := os.Stat(filepath.Join(gd, f)); err == nil {
			fmt.Fprintf(&b, "%s %d %d;", f, fi.Size(), fi.ModTime().UnixNano())
		} else {
			fmt.Fprintf(&b, "%s -;", f)
		}
	}
	return b.String(), true
}

// readWatchToken returns the token the last build kept with the tree's
// file links, "" with why when there is none or it no longer holds (the
// git files moved, the generation went back, a directory link).
func readWatchToken(indexDir, root string, gen int) (t watchToken, why string) {
	b, err := os.ReadFile(filepath.Join(indexDir, watchTokenName))
	if err != nil {
		return watchToken{}, "no token yet"
	}
	switch {
	case json.Unmarshal(b, &t) != nil || t.Generation > gen:
		return watchToken{}, "the token kept is not of this index"
	case t.DirLinks:
		return watchToken{}, "the last build met a symbolic link to a directory (below one a change makes no event where the server watches), so every build looks at every file until one meets none"
	}
	if g, ok := gitStamps(root); !ok || g != t.Git {
		return watchToken{}, "git's index or .git/info/exclude changed since the last build (what the walk lists may have)"
	}
	return t, ""
}

// writeWatchToken keeps t: a token given before the build looked at the
// tree, with the generation the build left and git's stamps taken before
// it; or that the build met a symbolic link. Best effort: without it the
// next build walks.
func writeWatchToken(indexDir string, t watchToken) {
	b, _ := json.Marshal(t)
	tmp := filepath.Join(indexDir, watchTokenName+".tmp")
	if os.WriteFile(tmp, b, 0o644) == nil {
		os.Rename(tmp, filepath.Join(indexDir, watchTokenName))
	}
}

// walkKey is the key of the walk options a build with settings ws and the
// watcher agree on.
func walkKey(ws WalkSettings) string { return graph.SourceWalk(ws.WalkOptions()).OptionsKey() }

// hookReply is the server's answer to the hook (AskHook).
type hookReply struct {
	Text  string `json:"text,omitempty"`
	Hits  int    `json:"hits"`
	Error string `json:"error,omitempty"`
}

// hookAnswer answers the hook's question from the live generation, whose
// ranking index the server holds: at 100k files loading it takes the
// hook's process seconds, the server's answer milliseconds.
func (w *watcher) hookAnswer(ctx context.Context, q string) hookReply {
	g, release, err := w.s.Acquire()
	if err != nil {
		return hookReply{Error: err.Error()}
	}
	defer release()
	au, _ := w.s.Annotations()
	text, hits, err := HookHits(ctx, g.Index, au, q)
	if err != nil {
		return hookReply{Error: err.Error()}
	}
	return hookReply{Text: text, Hits: hits}
}

// HookHits is what the agent hook shows for a search q: the top 5 stubs
// within 400 tokens, rendered, from ranking index ix and the notes and
// memories au (may be nil). No staleness: that reads the graph.
func HookHits(ctx context.Context, ix *engine.Index, au *annotate.Annotations, q string) (string, int, error) {
	res, err := Query(ctx, nil, ix, au, q, engine.Options{BudgetTokens: 400})
	if err != nil || len(res.Results) == 0 {
		return "", 0, err
	}
	if len(res.Results) > 5 {
		res.Results = res.Results[:5]
		res.Truncated = false
	}
	return res.Render(), len(res.Results), nil
}

// AskHook asks the server watching the index in indexDir for HookHits of
// q, within ctx. An error when no server answers (the hook then answers
// itself).
func AskHook(ctx context.Context, indexDir, q string) (string, int, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", filepath.Join(indexDir, watchSockName))
	if err != nil {
		return "", 0, err
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	b, _ := json.Marshal(map[string]string{"query": q})
	if _, err := c.Write(append(b, '\n')); err != nil {
		return "", 0, err
	}
	var r hookReply
	if err := json.NewDecoder(c).Decode(&r); err != nil {
		return "", 0, fmt.Errorf("the watching server's answer: %w", err)
	}
	if r.Error != "" {
		return "", 0, errors.New(r.Error)
	}
	return r.Text, r.Hits, nil
}
