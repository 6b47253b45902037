package annotate

// The authored store: notes and memories.
//
// Authored data is the only data not derived from the source, so no build
// may delete it and no acknowledged write may be lost. It lives in its own
// small Badger database, <indexdir>/authored/, apart from the generations.
//
// Any process may write (the CLI's remember/note, any number of MCP
// servers): a writer opens the database read-write, commits one synced
// transaction and closes it again, so it holds Badger's exclusive directory
// lock for milliseconds. A writer that finds the lock taken retries with
// backoff for up to authoredLockWait. After its commit a writer replaces
// <indexdir>/authored.version (write, fsync, rename); a reader process keeps
// the whole store in memory (it is small: a fact is at most MaxAuthoredBytes)
// and reloads it only when that file's content changes, which costs one
// small read per call.
//
// Anchors (anchor.go): a note, and a memory with a link, records the page it
// was written about with that page's Hash and BodyHash at the time. Whether
// it is fresh, possibly stale, moved or orphaned is computed when it is
// read, against the live graph (Annotations.Place), never persisted: a build
// that renames a symbol does not rewrite notes, so the same note re-attaches
// if the old ID returns, and following a move costs one scan of the graph
// per generation. Only two things change an anchor: confirming (Writer.
// Confirm re-anchors to the page the note shows on now, with its current
// hashes) and importing a changed shared file. A build records, per anchor
// it first sees broken, the time it saw that (seen/ keys below), so "the
// code changed 2026-11-20" stays the same date across later builds; those
// stamps are local and never shared.
//
// Sharing (shared.go): every write also writes the entry as one Markdown
// file in the repository's <root>/.wiki/ folder, and Build imports that
// folder, so the files a team commits are the durable, reviewable copy and
// the store is the fast path.
//
// Keys (values are JSON, for easy inspection and forward compatibility):
//
//	mem/<slug>                    Memory
//	note/<note id>                Note (note ids start with their UTC time; older stores used
//	                              note/<page id>\x00<time>-<n>, still read)
//	seen/<page id>\x00<hash>      when a build first saw that page without that hash (RFC 3339)

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// MaxAuthoredBytes bounds the text of one note or memory: 16 KiB is several
// pages of prose, and keeps the in-memory cache of a busy store small.
const MaxAuthoredBytes = 16 << 10

// MaxTitleBytes bounds a memory's title, category and relation.
const MaxTitleBytes = 200

// authoredLockWait is how long a writer or reader waits for another process
// holding the authored database's lock. Writers hold it for tens of
// milliseconds, so 5 s means a queue of well over 50 writers.
const authoredLockWait = 5 * time.Second

// DefaultRel is the relation of a memory's link when none is given.
const DefaultRel = "relates_to"

// ErrTooLarge is returned for a note or memory above MaxAuthoredBytes.
var ErrTooLarge = errors.New("too large")

// Memory is a fact written by an agent or a person. Link, when set, is the
// ID of a page the fact is about; Rel names that relation (DefaultRel);
// Anchor holds that page's fingerprints when the memory was written or last
// confirmed.
type Memory struct {
	Slug     string    `json:"slug"`
	Title    string    `json:"title"`
	Category string    `json:"category,omitempty"`
	Text     string    `json:"text"`
	Link     string    `json:"link,omitempty"`
	Rel      string    `json:"rel,omitempty"`
	Created  time.Time `json:"created"`
	Anchor
}

// ID returns the memory's page ID, memory:<slug>.
func (m *Memory) ID() string { return graph.MemoryID(m.Slug) }

// Page returns the memory as a page for ranking and display: Kind
// graph.KindMemory, Title, Doc = the text.
func (m *Memory) Page() graph.Page {
	return graph.Page{ID: m.ID(), Kind: graph.KindMemory, Title: m.Title, Name: m.Slug, Qualified: m.Category, Doc: m.Text}
}

// Note is dated text attached to one page. ID is unique across clones (its
// UTC time and random bits), so notes written on two branches never clash.
type Note struct {
	ID     string    `json:"id"`
	PageID string    `json:"page_id"`
	Text   string    `json:"text"`
	Time   time.Time `json:"time"`
	Anchor

	key string // its key in the store
}

// Anchor is what a note or a linked memory was written about: the page's
// Hash and BodyHash (zero: unknown, e.g. no index then, or a module page),
// and when they were taken (written or last confirmed; zero: never).
type Anchor struct {
	Hash     uint32    `json:"hash,omitempty"`
	BodyHash uint32    `json:"body_hash,omitempty"`
	Anchored time.Time `json:"anchored,omitzero"`
}

// anchorOf returns the anchor for page id in src at time t; a page src
// lacks (or a nil src) gives an anchor with zero hashes.
func anchorOf(src graph.PageSource, id string, t time.Time) Anchor {
	if src == nil || id == "" {
		return Anchor{}
	}
	pages, err := src.PagesOf([]string{id})
	p := pages[id]
	if err != nil || p == nil {
		return Anchor{}
	}
	return Anchor{Hash: p.Hash, BodyHash: p.BodyHash, Anchored: t}
}

// Annotations is an immutable in-memory copy of the authored store (the
// notes and memories). It is safe for concurrent use; the slices it returns
// are shared and must not be modified.
type Annotations struct {
	version  string
	memories []Memory          // by creation time
	bySlug   map[string]int    // slug → index in memories
	notes    map[string][]Note // page ID → notes by time
	links    map[string][]int  // linked page ID → indexes of memories linking to it
	pages    []graph.Page
	seen     map[string]time.Time // seenKey(page, hash) → when a build first saw the page without that hash

	resMu sync.Mutex
	resG  graph.PageSource
	res   *Placement
}

// Version identifies the store content this copy reflects ("" when the
// store was never written).
func (a *Annotations) Version() string { return a.version }

// Memories returns every memory, oldest first.
func (a *Annotations) Memories() []Memory { return a.memories }

// Memory returns the memory with the given slug.
func (a *Annotations) Memory(slug string) (Memory, bool) {
	i, ok := a.bySlug[slug]
	if !ok {
		return Memory{}, false
	}
	return a.memories[i], true
}

// Notes returns the notes on a page, oldest first.
func (a *Annotations) Notes(pageID string) []Note { return a.notes[pageID] }

// NoteCount returns the number of notes and the number of pages carrying them.
func (a *Annotations) NoteCount() (notes, pages int) {
	for _, ns := range a.notes {
		notes += len(ns)
	}
	return notes, len(a.notes)
}

// NotedPages returns the IDs of pages that carry notes, sorted.
func (a *Annotations) NotedPages() []string {
	out := make([]string, 0, len(a.notes))
	for id := range a.notes {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// LinkedFrom returns the memories whose Link is pageID: the in-direction of
// their relates edges.
func (a *Annotations) LinkedFrom(pageID string) []Memory {
	idx := a.links[pageID]
	out := make([]Memory, len(idx))
	for i, j := range idx {
		out[i] = a.memories[j]
	}
	return out
}

// HasAnchors reports whether any note or linked memory exists, i.e.
// whether Place needs a graph at all.
func (a *Annotations) HasAnchors() bool { return len(a.notes) > 0 || len(a.links) > 0 }

// MemoryPages returns every memory as a page (see Memory.Page), for ranking.
func (a *Annotations) MemoryPages() []graph.Page { return a.pages }

func authoredDir(dir string) string     { return filepath.Join(dir, "authored") }
func authoredVersion(dir string) string { return filepath.Join(dir, "authored.version") }

// cleanText validates and normalises user text: valid UTF-8, no NUL,
// trimmed, non-empty, at most max bytes.
func cleanText(what, s string, max int, required bool) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" && required:
		return "", fmt.Errorf("%s is empty", what)
	case len(s) > max:
		return "", fmt.Errorf("%s is %d bytes, more than the %d allowed: %w", what, len(s), max, ErrTooLarge)
	case !utf8.ValidString(s):
		return "", fmt.Errorf("%s is not valid UTF-8", what)
	case strings.ContainsRune(s, 0):
		return "", fmt.Errorf("%s contains NUL", what)
	}
	return s, nil
}

// Slugify turns a title into a memory slug: lower-case letters and digits
// joined by '-', at most 60 bytes, "memory" when nothing is left.
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if r >= utf8.RuneSelf {
				continue // keep slugs ASCII: they appear in IDs people type
			}
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= 60 {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "memory"
	}
	return strings.TrimRight(b.String(), "-")
}

// firstWords returns up to n words of s.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// Writer writes notes and memories. Index, the index directory, is
// required. Shared, when set, is the folder that mirrors every write as a
// Markdown file (the repository's .wiki/, see shared.go). Pages, when set,
// are the live generation's (a snapshot, read by page views, or a graph):
// writes anchor to its pages' fingerprints, and Confirm finds the notes
// shown on a page through it. Built is its build time
// (for Place). Every write is synced to the store before it returns; a
// failed mirror write is reported as an error wrapping ErrNotMirrored after
// the store write succeeded. The zero value is unusable; an
// Writer is a value and safe for concurrent use.
type Writer struct {
	Index  string
	Shared string
	Pages  graph.PageSource
	Built  time.Time
}

// ErrNotMirrored reports that a note or memory was saved in the index but
// its file in the shared folder could not be written.
var ErrNotMirrored = errors.New("saved in the index, but not in the shared folder")

// AddMemory stores a new memory in the index directory dir, without
// anchor or mirror file; see Writer.Remember.
func AddMemory(dir string, m Memory) (string, error) { return Writer{Index: dir}.Remember(m) }

// AddNote appends an unanchored note to pageID in the index directory dir;
// see Writer.Note.
func AddNote(dir, pageID, text string) (Note, error) {
	return Writer{Index: dir}.Note(pageID, text)
}

// Remember stores a new memory and returns its page ID. The slug comes
// from the title (or the first words of the text when there is no title)
// and is made unique with -2, -3, ... Link, when set, must be a valid page
// ID; whether that page exists is the caller's business (a link to a page
// that is gone is kept, like an orphaned note).
func (w Writer) Remember(m Memory) (string, error) {
	var err error
	if m.Text, err = cleanText("the fact", m.Text, MaxAuthoredBytes, true); err != nil {
		return "", err
	}
	if m.Title, err = cleanText("the title", m.Title, MaxTitleBytes, false); err != nil {
		return "", err
	}
	if m.Category, err = cleanText("the category", m.Category, MaxTitleBytes, false); err != nil {
		return "", err
	}
	if m.Rel, err = cleanText("the relation", m.Rel, MaxTitleBytes, false); err != nil {
		return "", err
	}
	if m.Link = strings.TrimSpace(m.Link); m.Link != "" {
		if _, _, _, err := graph.ParseID(m.Link); err != nil {
			return "", err
		}
		if m.Rel == "" {
			m.Rel = DefaultRel
		}
	} else if m.Rel != "" {
		return "", errors.New("a relation needs a link to a page")
	}
	if m.Title == "" {
		m.Title = firstWords(m.Text, 8)
		if len(m.Title) > MaxTitleBytes {
			m.Title = m.Title[:MaxTitleBytes]
			m.Title = strings.ToValidUTF8(m.Title, "")
		}
	}
	m.Title = strings.Join(strings.Fields(m.Title), " ")
	base := Slugify(m.Title)
	m.Created = time.Now().UTC()
	m.Anchor = anchorOf(w.Pages, m.Link, m.Created)
	err = updateAuthored(w.Index, func(txn *badger.Txn) error {
		slug := base
		for n := 2; ; n++ {
			_, err := txn.Get([]byte("mem/" + slug))
			if errors.Is(err, badger.ErrKeyNotFound) {
				break
			}
			if err != nil {
				return err
			}
			slug = base + "-" + strconv.Itoa(n)
		}
		m.Slug = slug
		return putMemory(txn, m)
	})
	if err != nil {
		return "", err
	}
	return m.ID(), w.mirror([]Memory{m}, nil)
}

func putMemory(txn *badger.Txn, m Memory) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return txn.Set([]byte("mem/"+m.Slug), b)
}

// putNote stores n under note/<id>, removing the key it had before.
func putNote(txn *badger.Txn, n Note) error {
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	key := "note/" + n.ID
	if n.key != "" && n.key != key {
		if err := txn.Delete([]byte(n.key)); err != nil {
			return err
		}
	}
	return txn.Set([]byte(key), b)
}

var noteSeq atomic.Uint64

// newNoteID returns a note ID: the UTC time to the second, then 32 random
// bits, e.g. 20261102-150405-3fa9c1d2. Sorting IDs sorts notes by time.
func newNoteID(t time.Time) string {
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		binary.BigEndian.PutUint32(r[:], uint32(noteSeq.Add(1))^uint32(os.Getpid()<<16)^uint32(t.UnixNano()))
	}
	return t.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(r[:])
}

// validNoteID reports an ID that is safe as a file name: [0-9a-z-], 1-64 bytes.
func validNoteID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-') {
			return false
		}
	}
	return true
}

// Note appends a dated note to the page pageID (a valid page ID; the page
// need not exist now: notes outlive their pages) and returns it, anchored
// to the page in w.Pages.
func (w Writer) Note(pageID, text string) (Note, error) {
	if _, _, _, err := graph.ParseID(pageID); err != nil {
		return Note{}, err
	}
	text, err := cleanText("the note", text, MaxAuthoredBytes, true)
	if err != nil {
		return Note{}, err
	}
	now := time.Now().UTC()
	n := Note{ID: newNoteID(now), PageID: pageID, Text: text, Time: now, Anchor: anchorOf(w.Pages, pageID, now)}
	if err := updateAuthored(w.Index, func(txn *badger.Txn) error { return putNote(txn, n) }); err != nil {
		return Note{}, err
	}
	return n, w.mirror(nil, []Note{n})
}

// Confirm re-anchors everything written about pageID — the notes shown on
// it (including notes that followed a move to it) and the memories linked
// to it — to the page's current fingerprints in w.Pages, which must be set
// and hold the page; then, when text is not empty, adds it as a new note.
// It returns the confirmed notes and memories (their new state) and the
// new note, if any.
func (w Writer) Confirm(pageID, text string) ([]Note, []Memory, *Note, error) {
	if w.Pages == nil {
		return nil, nil, nil, errors.New("confirming needs an index: run 'wikitoolkit build'")
	}
	if ps, err := w.Pages.PagesOf([]string{pageID}); err != nil {
		return nil, nil, nil, err
	} else if ps[pageID] == nil {
		return nil, nil, nil, fmt.Errorf("no page %q in the index", pageID)
	}
	var notes []Note
	var mems []Memory
	now := time.Now().UTC()
	anchor := anchorOf(w.Pages, pageID, now)
	err := updateAuthored(w.Index, func(txn *badger.Txn) error {
		notes, mems = nil, nil
		a, err := loadTxn(txn, "")
		if err != nil {
			return err
		}
		r := a.Place(w.Pages, w.Built)
		for _, pn := range r.Notes(pageID) {
			n := pn.Note
			n.PageID, n.Anchor = pageID, anchor
			if err := putNote(txn, n); err != nil {
				return err
			}
			notes = append(notes, n)
		}
		for _, pm := range r.LinkedFrom(pageID) {
			m := pm.Memory
			m.Link, m.Anchor = pageID, anchor
			if err := putMemory(txn, m); err != nil {
				return err
			}
			mems = append(mems, m)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	merr := w.mirror(mems, notes)
	if strings.TrimSpace(text) == "" {
		return notes, mems, nil, merr
	}
	n, err := w.Note(pageID, text)
	if err != nil {
		return notes, mems, nil, err
	}
	return notes, mems, &n, merr
}

// mirror writes mems and notes to w.Shared, if set.
func (w Writer) mirror(mems []Memory, notes []Note) error {
	if w.Shared == "" {
		return nil
	}
	if err := writeShared(w.Shared, mems, notes); err != nil {
		return fmt.Errorf("%w: %v", ErrNotMirrored, err)
	}
	return nil
}

// authoredOptions are the generations' Badger options (graph's store.go)
// sized for a small store whose every write is synced.
func authoredOptions(dir string, readOnly bool) badger.Options {
	return badger.DefaultOptions(dir).
		WithLogger(nil).
		WithReadOnly(readOnly).
		WithNumMemtables(2).
		WithNumLevelZeroTables(4).
		WithNumLevelZeroTablesStall(12).
		WithNumGoroutines(2).
		WithBlockSize(16 << 10).
		WithMetricsEnabled(false).
		WithDetectConflicts(false).
		WithMemTableSize(2 << 20).
		WithValueThreshold(64 << 10).
		WithValueLogFileSize(1 << 20).
		WithBlockCacheSize(1 << 20).
		WithIndexCacheSize(0).
		WithCompression(options.None).
		WithNumCompactors(2).
		WithSyncWrites(true)
}

// isLockErr reports Badger's "another process holds the directory" error.
// Badger has no sentinel for it; the message is stable across v4.
func isLockErr(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Cannot acquire directory lock")
}

// openAuthored opens the authored database, waiting for other processes'
// locks with exponential backoff (1 ms up to 100 ms steps) for up to
// authoredLockWait.
func openAuthored(dir string, readOnly bool) (*badger.DB, error) {
	ad := authoredDir(dir)
	if err := os.MkdirAll(ad, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", ad, err)
	}
	deadline := time.Now().Add(authoredLockWait)
	wait := time.Millisecond
	for {
		db, err := badger.Open(authoredOptions(ad, readOnly))
		if err == nil {
			return db, nil
		}
		if readOnly && !isLockErr(err) {
			// A read-only open fails after a crash until a read-write open
			// replays the log; do that once.
			if db, err2 := badger.Open(authoredOptions(ad, false)); err2 == nil {
				return db, nil
			} else if isLockErr(err2) {
				err = err2
			}
		}
		if !isLockErr(err) {
			return nil, fmt.Errorf("open notes and memories in %s: %w", ad, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("notes and memories in %s stay locked by another process (waited %s): try again", ad, authoredLockWait)
		}
		time.Sleep(wait)
		wait = min(wait*2, 100*time.Millisecond)
	}
}

// updateAuthored runs fn in one read-write transaction, closes the
// database, and bumps the version file.
func updateAuthored(dir string, fn func(*badger.Txn) error) error {
	if err := graph.EnsureDir(dir); err != nil {
		return graph.NotWritable(dir, err)
	}
	db, err := openAuthored(dir, false)
	if err != nil {
		return graph.NotWritable(dir, err)
	}
	err = db.Update(fn)
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close notes and memories: %w", cerr)
	}
	if err != nil {
		return err
	}
	v := fmt.Sprintf("%d-%d-%d\n", time.Now().UnixNano(), os.Getpid(), noteSeq.Add(1))
	if err := graph.WriteFileAtomic(authoredVersion(dir), []byte(v)); err != nil {
		return graph.NotWritable(dir, fmt.Errorf("bump %s: %w", authoredVersion(dir), err))
	}
	return nil
}

// readAuthoredVersion returns the version file's content, "" when absent.
func readAuthoredVersion(dir string) string {
	b, _ := os.ReadFile(authoredVersion(dir))
	return strings.TrimSpace(string(b))
}

// Load reads the whole authored store of the index directory dir.
// A store never written is empty, not an error.
func Load(dir string) (*Annotations, error) {
	v := readAuthoredVersion(dir)
	if _, err := os.Stat(filepath.Join(authoredDir(dir), "MANIFEST")); err != nil {
		return newAuthored(v, nil, nil, nil), nil
	}
	db, err := openAuthored(dir, true)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var a *Annotations
	err = db.View(func(txn *badger.Txn) error {
		a, err = loadTxn(txn, v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read notes and memories: %w", err)
	}
	return a, nil
}

// loadTxn reads every memory, note and seen stamp visible in txn.
func loadTxn(txn *badger.Txn, version string) (*Annotations, error) {
	var mems []Memory
	var notes []Note
	seen := map[string]time.Time{}
	it := txn.NewIterator(badger.DefaultIteratorOptions)
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		k := string(it.Item().Key())
		err := it.Item().Value(func(b []byte) error {
			switch {
			case strings.HasPrefix(k, "mem/"):
				var m Memory
				if json.Unmarshal(b, &m) == nil {
					mems = append(mems, m)
				}
			case strings.HasPrefix(k, "note/"):
				var n Note
				if json.Unmarshal(b, &n) == nil {
					n.key = k
					if n.ID == "" { // written before notes had IDs: derive a stable one
						n.ID = n.Time.UTC().Format("20060102-150405") + fmt.Sprintf("-%08x", uint32(xxhash.Sum64String(k)))
					}
					notes = append(notes, n)
				}
			case strings.HasPrefix(k, "seen/"):
				if t, err := time.Parse(time.RFC3339Nano, string(b)); err == nil {
					seen[k[len("seen/"):]] = t
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return newAuthored(version, mems, notes, seen), nil
}

// seenKey is the key suffix of a seen stamp.
func seenKey(page string, hash uint32) string { return fmt.Sprintf("%s\x00%08x", page, hash) }

func newAuthored(version string, mems []Memory, notes []Note, seen map[string]time.Time) *Annotations {
	sort.SliceStable(mems, func(i, j int) bool { return mems[i].Created.Before(mems[j].Created) })
	a := &Annotations{version: version, memories: mems, bySlug: make(map[string]int, len(mems)),
		notes: map[string][]Note{}, links: map[string][]int{}, pages: make([]graph.Page, len(mems)), seen: seen}
	for i := range mems {
		a.bySlug[mems[i].Slug] = i
		a.pages[i] = mems[i].Page()
		if mems[i].Link != "" {
			a.links[mems[i].Link] = append(a.links[mems[i].Link], i)
		}
	}
	for _, n := range notes {
		a.notes[n.PageID] = append(a.notes[n.PageID], n)
	}
	for _, ns := range a.notes {
		sortNotes(ns)
	}
	return a
}

func sortNotes(ns []Note) {
	sort.SliceStable(ns, func(i, j int) bool {
		if !ns[i].Time.Equal(ns[j].Time) {
			return ns[i].Time.Before(ns[j].Time)
		}
		return ns[i].ID < ns[j].ID
	})
}

// Cache keeps a process's copy of the authored store fresh: Get
// reloads it when the version file changed since the last load. It is safe
// for concurrent use.
type Cache struct {
	dir string
	mu  sync.Mutex
	cur *Annotations
	at  string // version of cur
}

// NewCache returns a cache of the authored store of index directory dir.
func NewCache(dir string) *Cache { return &Cache{dir: dir} }

// Get returns the current authored data. On a reload error it returns the
// previous copy, if any, with the error.
func (c *Cache) Get() (*Annotations, error) {
	v := readAuthoredVersion(c.dir)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur != nil && v == c.at {
		return c.cur, nil
	}
	a, err := Load(c.dir)
	if err != nil {
		if c.cur != nil {
			return c.cur, err
		}
		return newAuthored("", nil, nil, nil), err
	}
	// The version read before loading may be older than what was loaded
	// (a write landed in between); remembering the older one only costs one
	// extra reload.
	c.cur, c.at = a, v
	return a, nil
}
