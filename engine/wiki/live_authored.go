package wiki

import (
	"errors"
	"fmt"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// CheckPage returns the page ID ref names (ResolveRef), or an
// error when it is malformed or names no page of the live index or memory.
func (s *Live) CheckPage(ref string) (string, error) {
	if kind, _, _, err := graph.ParseID(ref); err == nil && kind == graph.KindMemory {
		a, _ := s.Annotations()
		return CheckPage(nil, a, ref, "")
	}
	g, release, err := s.Acquire()
	if err != nil {
		return "", err
	}
	defer release()
	a, _ := s.Annotations()
	return CheckPage(g.Snap, a, ref, "")
}

// CheckPage returns the page ID ref names (ResolveRef, relative paths taken
// from base first), or an error that says what to do when it is malformed
// or names no page of snap (nil: only IDs, and only memories are checked)
// or memory of a.
func CheckPage(snap *graph.Snapshot, a *annotate.Annotations, ref, base string) (string, error) {
	id, err := ResolveRef(snap, ref, base)
	if err != nil {
		return "", err
	}
	kind, _, frag, err := graph.ParseID(id)
	if err != nil {
		return "", err
	}
	if kind == graph.KindMemory {
		if a != nil {
			if _, ok := a.Memory(frag); ok {
				return id, nil
			}
		}
		return "", fmt.Errorf("no page %q; memory IDs come from wiki_query", id)
	}
	if snap == nil {
		return id, nil
	}
	if _, err := snap.Page(id); err != nil {
		if errors.Is(err, graph.ErrNotFound) {
			_, err := LoadPage(snap, nil, id, PageOptions{})
			return "", err // "no page …; did you mean …"
		}
		return "", err
	}
	return id, nil
}

// AnnotationWriter returns the writer for notes and memories, anchored to the live
// generation when there is one, and the function that releases it.
func (s *Live) AnnotationWriter() (annotate.Writer, func()) {
	w := annotate.Writer{Index: s.dir}
	g, release, err := s.Acquire()
	if err != nil {
		w.Shared = annotate.SharedDir(s.RootNoIndex())
		return w, func() {}
	}
	w.Shared = annotate.SharedDir(s.Root(g))
	w.Pages, w.Built = g.Snap, g.Snap.Info().Started
	return w, release
}
