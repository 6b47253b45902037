package cli

import (
	"fmt"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// noteEntry is one line of `notes --json`: a note, or a memory (Page is
// empty for a memory linked to no page).
type noteEntry struct {
	Kind    string `json:"kind"` // "note" or "memory"
	ID      string `json:"id"`   // note ID, or the memory's page ID
	Page    string `json:"page"` // the page it was written about ("" for an unlinked memory)
	ShownOn string `json:"shown_on,omitempty"`
	State   string `json:"state"`
	Stale   string `json:"stale,omitempty"` // the state in words
	Time    string `json:"time"`
	Changed string `json:"changed,omitempty"`
	Text    string `json:"text"`
}

func runNotes(e *env, args []string) error {
	fs := newFlags(e, "notes")
	orphans := fs.Bool("orphans", false, "only notes and memories whose page no longer exists")
	stale := fs.Bool("stale", false, "only possibly stale ones (their code changed since they were written or confirmed)")
	asJSON := fs.Bool("json", false, "print {\"notes\": [...]} as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("notes takes no arguments")
	}
	snap, a, err := e.openWithAuthored()
	if err != nil {
		return err
	}
	defer snap.Close()
	r := wiki.PlaceAnnotations(snap, a)
	keep := func(s annotate.State) bool {
		if !*orphans && !*stale {
			return true
		}
		return *orphans && s == annotate.StateOrphan || *stale && s == annotate.StateStale
	}
	at := func(an annotate.Anchor, written time.Time) time.Time {
		if an.Anchored.IsZero() {
			return written
		}
		return an.Anchored
	}
	entry := func(kind, id, page, text string, written time.Time, an annotate.Anchor, st annotate.Standing) noteEntry {
		ne := noteEntry{Kind: kind, ID: id, Page: page, State: st.State.String(), Stale: st.Describe(at(an, written)),
			Time: written.Local().Format(time.RFC3339), Text: text}
		if st.ShownOn != page {
			ne.ShownOn = st.ShownOn
		}
		if !st.Changed.IsZero() {
			ne.Changed = st.Changed.Local().Format(time.RFC3339)
		}
		return ne
	}
	out := []noteEntry{}
	for _, n := range r.AllNotes() {
		if keep(n.State) {
			out = append(out, entry("note", n.ID, n.PageID, n.Text, n.Time, n.Anchor, n.Standing))
		}
	}
	for _, m := range r.Memories() {
		if keep(m.State) {
			out = append(out, entry("memory", m.ID(), m.Link, m.Text, m.Created, m.Anchor, m.Standing))
		}
	}
	if *asJSON {
		return writeJSON(e.stdout, map[string]any{"notes": out})
	}
	if len(out) == 0 {
		fmt.Fprintln(e.stdout, "no notes")
		return nil
	}
	for _, ne := range out {
		// Where it shows now: a moved entry's new page (its Stale says
		// "moved from" the old one); an unlinked memory by its own ID.
		where := ne.Page
		switch {
		case ne.ShownOn != "" && ne.State == annotate.StateMoved.String():
			where = ne.ShownOn
		case where == "":
			where = ne.ID + " (no linked page)"
		}
		fmt.Fprintf(e.stdout, "%s  %s %s  %s\n", where, ne.Kind, ne.Time[:10], oneLine(ne.Text, 100))
		if ne.Stale != "" {
			fmt.Fprintf(e.stdout, "    %s\n", ne.Stale)
		}
	}
	return nil
}

// oneLine returns s on one line, cut to n bytes.
func oneLine(s string, n int) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '\r' || c == '\t' {
			b[i] = ' '
		}
	}
	if len(b) > n {
		return string([]rune(string(b[:n]))) + "…"
	}
	return string(b)
}
