package annotate

// The shared folder: notes and memories as plain files a team commits.
//
// <root>/.wiki/ (SharedDirName) holds one Markdown file per memory and one
// per note, so two branches that add entries — even notes on the same page —
// touch different files and merge without conflicts:
//
//	.wiki/README.md                          what the folder is (written once)
//	.wiki/memories/<slug>.md                 one memory
//	.wiki/notes/<note id>.md                 one note (its page is in the front matter)
//
// A file is a small front matter (fixed key order; a value is written bare
// when it is plain, else JSON-quoted, which YAML reads too) and the text:
//
//	---
//	id: memory:retries-are-capped
//	title: Retries are capped
//	category: gotcha
//	link: symbol:pay/retry.go#Retry
//	rel: relates_to
//	hash: 3fa9c1d2
//	body_hash: 0b7e1a44
//	anchored: 2026-11-02T15:04:05.123456789Z
//	created: 2026-11-02T15:04:05.123456789Z
//	---
//	Retries are capped at 30 s.
//
// Output depends only on the entry, so rewriting an unchanged entry changes
// no byte. Every write (remember, note, confirm) writes its file; Build
// imports the folder (ImportShared) when its listing changed since the last
// import: entries the store lacks are added, entries whose file differs are
// updated from the file (the file is the reviewed copy), and nothing is ever
// deleted from either side. Two branches that add a memory with the same
// title both write memories/<slug>.md: git reports that add/add conflict
// like any other; give one a different --title.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// SharedDirName is the folder, at a repository's root, that mirrors notes
// and memories. The walker does not index it (memories are pages already).
const SharedDirName = ".wiki"

// SharedDir returns the shared folder of the repository at root.
func SharedDir(root string) string { return filepath.Join(root, SharedDirName) }

const sharedReadme = `# .wiki — notes and memories shared through git

Written by wikitoolkit: one Markdown file per memory (memories/) and one per
note (notes/), so branches that add entries merge without conflicts. Commit
this folder. 'wikitoolkit build' loads it into the local index; every
'wikitoolkit remember', 'note' and 'note --confirm' (and the MCP tools
wiki_remember and wiki_note) write here too. You may edit the text or
front matter; the next build picks the change up.
`

// SharedImport reports what an import did.
type SharedImport struct {
	Memories int         `json:"memories"` // added or updated
	Notes    int         `json:"notes"`    // added or updated
	Errors   []walk.Skip `json:"errors,omitempty"`
}

// sharedValue renders a front matter value: bare when plain, else JSON.
func sharedValue(s string) string {
	plain := s != "" && s == strings.TrimSpace(s) && !strings.Contains(s, ": ") && !strings.Contains(s, " #")
	if plain && strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") {
		plain = false
	}
	for i := 0; plain && i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f || s[i] == '\\' {
			plain = false
		}
	}
	if plain {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func hexHash(h uint32) string { return fmt.Sprintf("%08x", h) }

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

type kv struct{ k, v string }

func renderShared(fields []kv, text string) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	for _, f := range fields {
		if f.v == "" {
			continue
		}
		b.WriteString(f.k)
		b.WriteString(": ")
		b.WriteString(sharedValue(f.v))
		b.WriteByte('\n')
	}
	b.WriteString("---\n")
	b.WriteString(text)
	b.WriteByte('\n')
	return b.Bytes()
}

func anchorFields(an Anchor) []kv {
	var out []kv
	if an.Hash != 0 {
		out = append(out, kv{"hash", hexHash(an.Hash)})
	}
	if an.BodyHash != 0 {
		out = append(out, kv{"body_hash", hexHash(an.BodyHash)})
	}
	return append(out, kv{"anchored", fmtTime(an.Anchored)})
}

func memoryFile(m Memory) []byte {
	f := []kv{{"id", m.ID()}, {"title", m.Title}, {"category", m.Category}, {"link", m.Link}, {"rel", m.Rel}}
	f = append(f, anchorFields(m.Anchor)...)
	f = append(f, kv{"created", fmtTime(m.Created)})
	return renderShared(f, m.Text)
}

func noteFile(n Note) []byte {
	f := []kv{{"id", n.ID}, {"page", n.PageID}}
	f = append(f, anchorFields(n.Anchor)...)
	f = append(f, kv{"time", fmtTime(n.Time)})
	return renderShared(f, n.Text)
}

// parseShared splits a shared file into its front matter and text.
func parseShared(b []byte) (map[string]string, string, error) {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return nil, "", errors.New("no front matter (the file must start with ---)")
	}
	head, text, ok := strings.Cut(s[4:], "\n---\n")
	if !ok {
		if h, found := strings.CutSuffix(s[4:], "\n---"); found {
			head, text, ok = h, "", true
		} else if strings.HasPrefix(s[4:], "---\n") {
			head, text, ok = "", s[8:], true
		}
	}
	if !ok {
		return nil, "", errors.New("the front matter has no closing ---")
	}
	f := map[string]string{}
	for i, line := range strings.Split(head, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, "", fmt.Errorf("front matter line %d: want key: value", i+2)
		}
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, `"`) {
			var u string
			if err := json.Unmarshal([]byte(v), &u); err != nil {
				return nil, "", fmt.Errorf("front matter line %d: bad quoted value", i+2)
			}
			v = u
		} else if strings.HasPrefix(v, `'`) && strings.HasSuffix(v, `'`) && len(v) >= 2 {
			v = strings.ReplaceAll(v[1:len(v)-1], "''", "'")
		}
		f[strings.TrimSpace(k)] = v
	}
	return f, strings.TrimSpace(text), nil
}

func parseAnchor(f map[string]string) (Anchor, error) {
	var an Anchor
	for k, dst := range map[string]*uint32{"hash": &an.Hash, "body_hash": &an.BodyHash} {
		if v := f[k]; v != "" {
			h, err := strconv.ParseUint(v, 16, 32)
			if err != nil {
				return an, fmt.Errorf("%s %q is not 8 hex digits", k, v)
			}
			*dst = uint32(h)
		}
	}
	var err error
	an.Anchored, err = parseTime(f, "anchored")
	return an, err
}

func parseTime(f map[string]string, k string) (time.Time, error) {
	v := f[k]
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return t, fmt.Errorf("%s %q is not an RFC 3339 time", k, v)
	}
	return t.UTC(), nil
}

func parseMemoryFile(name string, b []byte) (Memory, error) {
	f, text, err := parseShared(b)
	if err != nil {
		return Memory{}, err
	}
	m := Memory{Title: f["title"], Category: f["category"], Link: f["link"], Rel: f["rel"]}
	slug := strings.TrimSuffix(name, ".md")
	if id := f["id"]; id != "" {
		slug = strings.TrimPrefix(id, "memory:")
	}
	if !validNoteID(slug) {
		return m, fmt.Errorf("id %q is not memory:<slug> with a-z, 0-9 and -", f["id"])
	}
	m.Slug = slug
	if m.Text, err = cleanText("the fact", text, MaxAuthoredBytes, true); err != nil {
		return m, err
	}
	for _, s := range []*string{&m.Title, &m.Category, &m.Rel} {
		if *s, err = cleanText("a front matter value", *s, MaxTitleBytes, false); err != nil {
			return m, err
		}
	}
	if m.Title == "" {
		m.Title = firstWords(m.Text, 8)
	}
	if m.Link != "" {
		if _, _, _, err := graph.ParseID(m.Link); err != nil {
			return m, err
		}
		if m.Rel == "" {
			m.Rel = DefaultRel
		}
	} else {
		m.Rel = ""
	}
	if m.Anchor, err = parseAnchor(f); err != nil {
		return m, err
	}
	m.Created, err = parseTime(f, "created")
	return m, err
}

func parseNoteFile(name string, b []byte) (Note, error) {
	f, text, err := parseShared(b)
	if err != nil {
		return Note{}, err
	}
	n := Note{ID: f["id"], PageID: f["page"]}
	if n.ID == "" {
		n.ID = strings.TrimSuffix(name, ".md")
	}
	if !validNoteID(n.ID) {
		return n, fmt.Errorf("id %q: want lower-case letters, digits and -", n.ID)
	}
	if _, _, _, err := graph.ParseID(n.PageID); err != nil {
		return n, fmt.Errorf("page: %w", err)
	}
	if n.Text, err = cleanText("the note", text, MaxAuthoredBytes, true); err != nil {
		return n, err
	}
	if n.Anchor, err = parseAnchor(f); err != nil {
		return n, err
	}
	n.Time, err = parseTime(f, "time")
	return n, err
}

// writeShared writes the files of mems and notes under dir, creating it
// (with its README) when needed. A file whose content is already right is
// left alone, so its mtime and the import stamp stay.
func writeShared(dir string, mems []Memory, notes []Note) error {
	if len(mems) == 0 && len(notes) == 0 {
		return nil
	}
	for _, sub := range []string{"memories", "notes"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	readme := filepath.Join(dir, "README.md")
	if _, err := os.Stat(readme); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(readme, []byte(sharedReadme), 0o644); err != nil {
			return err
		}
	}
	put := func(path string, b []byte) error {
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
			return nil
		}
		return graph.WriteFileAtomic(path, b)
	}
	for _, m := range mems {
		if err := put(filepath.Join(dir, "memories", m.Slug+".md"), memoryFile(m)); err != nil {
			return err
		}
	}
	for _, n := range notes {
		if !validNoteID(n.ID) {
			continue // an ID from an old store that a file name cannot carry; never happens for new notes
		}
		if err := put(filepath.Join(dir, "notes", n.ID+".md"), noteFile(n)); err != nil {
			return err
		}
	}
	return nil
}

// ExportShared writes every memory and note of the index directory index
// as files under dir and returns how many entries it wrote.
func ExportShared(index, dir string) (memories, notes int, err error) {
	a, err := Load(index)
	if err != nil {
		return 0, 0, err
	}
	var ns []Note
	for _, id := range a.NotedPages() {
		ns = append(ns, a.Notes(id)...)
	}
	if err := writeShared(dir, a.Memories(), ns); err != nil {
		return 0, 0, fmt.Errorf("export to %s: %w", dir, err)
	}
	return len(a.Memories()), len(ns), nil
}

// readSharedDir parses every entry file under dir; files it cannot parse
// are reported, not fatal. A missing dir is empty.
func readSharedDir(dir string) ([]Memory, []Note, []walk.Skip) {
	var mems []Memory
	var notes []Note
	var bad []walk.Skip
	for _, sub := range []string{"memories", "notes"} {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				bad = append(bad, walk.Skip{Path: sub, Reason: err.Error()})
			}
			continue
		}
		for _, e := range ents {
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasSuffix(name, ".md") {
				continue
			}
			rel := sub + "/" + name
			b, err := os.ReadFile(filepath.Join(dir, sub, name))
			if err == nil && len(b) > 4*MaxAuthoredBytes {
				err = ErrTooLarge
			}
			if err == nil {
				if sub == "memories" {
					var m Memory
					if m, err = parseMemoryFile(name, b); err == nil {
						mems = append(mems, m)
					}
				} else {
					var n Note
					if n, err = parseNoteFile(name, b); err == nil {
						notes = append(notes, n)
					}
				}
			}
			if err != nil {
				bad = append(bad, walk.Skip{Path: rel, Reason: err.Error()})
			}
		}
	}
	return mems, notes, bad
}

// sameMemory and sameNote compare what a shared file carries.
func sameMemory(a, b Memory) bool {
	return bytes.Equal(memoryFile(a), memoryFile(b))
}

func sameNote(a, b Note) bool { return bytes.Equal(noteFile(a), noteFile(b)) }

// ImportShared loads the files under dir into the store of the index
// directory index: entries it lacks are added, entries whose file differs
// are updated from the file; nothing is deleted. When mirror is set and is
// not dir, the imported entries' files are written there too (an import
// from elsewhere lands in the repository's shared folder). It writes the
// store only when something changed.
func ImportShared(index, dir, mirror string) (SharedImport, error) {
	var res SharedImport
	mems, notes, bad := readSharedDir(dir)
	res.Errors = bad
	if len(mems) == 0 && len(notes) == 0 {
		return res, nil
	}
	a, err := Load(index)
	if err != nil {
		return res, err
	}
	byID := map[string]Note{}
	for _, ns := range a.notes {
		for _, n := range ns {
			byID[n.ID] = n
		}
	}
	var putM []Memory
	var putN []Note
	for _, m := range mems {
		if old, ok := a.Memory(m.Slug); !ok || !sameMemory(old, m) {
			putM = append(putM, m)
		}
	}
	for _, n := range notes {
		old, ok := byID[n.ID]
		if ok {
			n.key = old.key
		}
		if !ok || !sameNote(old, n) {
			putN = append(putN, n)
		}
	}
	if len(putM) == 0 && len(putN) == 0 {
		return res, nil
	}
	err = updateAuthored(index, func(txn *badger.Txn) error {
		for _, m := range putM {
			if err := putMemory(txn, m); err != nil {
				return err
			}
		}
		for _, n := range putN {
			if err := putNote(txn, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.Memories, res.Notes = len(putM), len(putN)
	if mirror != "" && filepath.Clean(mirror) != filepath.Clean(dir) {
		if err := writeShared(mirror, putM, putN); err != nil {
			return res, fmt.Errorf("%w: %v", ErrNotMirrored, err)
		}
	}
	return res, nil
}

// sharedListing fingerprints the entry files under dir (names, sizes,
// mtimes); "" when there are none.
func sharedListing(dir string) string {
	var parts []string
	for _, sub := range []string{"memories", "notes"} {
		ents, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, e := range ents {
			if fi, err := e.Info(); err == nil {
				parts = append(parts, fmt.Sprintf("%s/%s %d %d", sub, e.Name(), fi.Size(), fi.ModTime().UnixNano()))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	sort.Strings(parts)
	return fmt.Sprintf("%s %016x\n", dir, xxhash.Sum64String(strings.Join(parts, "\n")))
}

// ImportSharedIfChanged runs ImportShared from dir into the index
// directory index, only when the folder's listing changed since the last
// import into this index (one ReadDir otherwise): what a build runs first,
// under the build lock. It returns nil when it did not import; errors are
// in the result's Errors.
func ImportSharedIfChanged(index, dir string) *SharedImport {
	stamp := filepath.Join(index, "shared.stamp")
	listing := sharedListing(dir)
	if listing == "" {
		return nil
	}
	if old, err := os.ReadFile(stamp); err == nil && string(old) == listing {
		return nil
	}
	res, err := ImportShared(index, dir, "")
	if err != nil {
		res.Errors = append(res.Errors, walk.Skip{Path: SharedDirName, Reason: err.Error()})
		return &res
	}
	_ = graph.WriteFileAtomic(stamp, []byte(listing)) // best effort: without it the next build imports again, harmlessly
	return &res
}
