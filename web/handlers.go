package web

import (
	"bytes"
	"crypto/hmac"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

// Bounds of what a request may ask.
const (
	maxQueryBytes = 1000
	maxFormBytes  = 64 << 10
	maxNoteBytes  = 16 << 10
)

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request) {
	g, release, ok := s.acquireOrFail(w, r)
	if !ok {
		return
	}
	defer release()
	a, _ := s.live.Annotations()
	v, err := s.buildHome(g, a, serverLinks)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "Cannot read the index", err.Error())
		return
	}
	s.send(w, r, "home", v)
}

// pageID returns the page ID of a /page/ or /graph/ request.
func pageID(r *http.Request) string { return r.PathValue("id") }

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	id := pageID(r)
	from := 1
	if f := r.URL.Query().Get("from"); f != "" {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			s.fail(w, r, http.StatusBadRequest, "Bad line", fmt.Sprintf("from=%q is not a line number; lines start at 1", f))
			return
		}
		from = n
	}
	g, release, ok := s.acquireOrFail(w, r)
	if !ok {
		return
	}
	defer release()
	a, _ := s.live.Annotations()
	v, err := s.buildPage(g, a, id, from, serverLinks, nil)
	if err != nil {
		s.pageError(w, r, id, err)
		return
	}
	s.send(w, r, "page", v)
}

// pageError answers a page that cannot be shown: 404 for a missing or
// malformed ID, with the hint the engine gives.
func (s *Server) pageError(w http.ResponseWriter, r *http.Request, id string, err error) {
	switch {
	case errors.Is(err, graph.ErrNotFound):
		s.fail(w, r, http.StatusNotFound, "No such page", err.Error())
	case errors.Is(err, graph.ErrBadID):
		s.fail(w, r, http.StatusNotFound, "No such page", err.Error()+". Page IDs look like file:cli/cli.go or symbol:cli/cli.go#Main; search finds them.")
	default:
		s.fail(w, r, http.StatusInternalServerError, "Cannot show "+id, err.Error())
	}
}

// graphView is the page of one graph picture.
type graphView struct {
	head
	ID, Name, Href string
	Graph          template.HTML
}

func (s *Server) handleGraph(w http.ResponseWriter, r *http.Request) {
	id := pageID(r)
	g, release, ok := s.acquireOrFail(w, r)
	if !ok {
		return
	}
	defer release()
	gr, err := pageGraph(g.Snap, id)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "Cannot read the index", err.Error())
		return
	}
	if _, ok := gr.Lookup(id); !ok {
		_, err := wiki.LoadPage(g.Snap, nil, id, wiki.PageOptions{})
		if err == nil {
			err = fmt.Errorf("%s has no graph picture (memories are drawn on the page they are about)", id)
			s.fail(w, r, http.StatusNotFound, "No picture", err.Error())
			return
		}
		s.pageError(w, r, id, err)
		return
	}
	a, _ := s.live.Annotations()
	pl := wiki.PlaceAnnotations(g.Snap, a)
	it := describe(gr, pl, id, serverLinks)
	v := &graphView{head: s.head(serverLinks, "graph · "+it.Text), ID: id, Name: it.Text, Href: it.Href,
		Graph: drawGraph(gr, pl, id, serverLinks, true)}
	s.send(w, r, "graph", v)
}

// searchView is a ranked answer.
type searchView struct {
	head
	Query   string
	Results []result
	Note    string
	More    int
	Partial string
}

// result is one stub of the answer, in rank order.
type result struct {
	item
	ID, Snippet string
	Symbols     []string
	Copies      []string // the places of the copies the answer folded into it
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	v := &searchView{head: s.head(serverLinks, "search"), Query: q}
	v.head.Query = q
	if len(q) > maxQueryBytes {
		s.fail(w, r, http.StatusBadRequest, "Question too long", fmt.Sprintf("the question has %d bytes; ask in at most %d (a few words, a name or a path)", len(q), maxQueryBytes))
		return
	}
	if q == "" {
		s.send(w, r, "search", v)
		return
	}
	g, release, ok := s.acquireOrFail(w, r)
	if !ok {
		return
	}
	defer release()
	a, _ := s.live.Annotations()
	res, err := wiki.Query(r.Context(), g.Snap, g.Index, a, q, engine.Options{BudgetTokens: engine.DefaultBudgetTokens})
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "Search failed", err.Error())
		return
	}
	ids := make([]string, len(res.Results))
	for i, st := range res.Results {
		ids[i] = st.ID
	}
	gr, _ := g.Snap.Neighbourhood(nil, ids...) // the results' pages alone
	pl := wiki.PlaceAnnotations(g.Snap, a)
	for _, st := range res.Results {
		it := describe(gr, pl, st.ID, serverLinks)
		if st.Kind == "note" {
			it.Kind, it.Sub = "note", st.Title
		}
		if it.Text == st.ID && st.Title != "" {
			it.Text = st.Title
		}
		if st.Line > 0 && st.Path != "" {
			it.Where, it.LineHref = st.Path+":"+strconv.Itoa(st.Line), serverLinks.source(graph.FileID(st.Path), st.Line)
		}
		v.Results = append(v.Results, result{item: it, ID: st.ID, Snippet: clip(st.Snippet, 300), Symbols: st.Symbols, Copies: st.Copies})
	}
	v.Note, v.More = res.Note, res.More
	if res.Partial != nil {
		v.Partial = strings.TrimSpace(wiki.PartialLine(res.Partial))
	}
	s.send(w, r, "search", v)
}

func (s *Server) handleCSS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Cache-Control", "max-age=300")
	w.Write([]byte(stylesheet()))
}

// checkWrite refuses a POST that lacks the form's token, or that comes
// from another machine to a server without a bearer token (guard has
// checked the token when there is one).
func (s *Server) checkWrite(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, "Bad form", fmt.Sprintf("the form could not be read (%v); it holds at most %d bytes", err, maxFormBytes))
		return false
	}
	if s.opt.Token == "" && !remoteLoopback(r) {
		s.fail(w, r, http.StatusForbidden, "Refused", "writing is allowed from this machine only, unless the server has a bearer token (--token-file)")
		return false
	}
	if !hmac.Equal([]byte(r.PostForm.Get("csrf")), []byte(s.csrf)) {
		s.fail(w, r, http.StatusForbidden, "Refused", "the form's token is missing or old: reload the page and send the form again")
		return false
	}
	return true
}

func (s *Server) handleNote(w http.ResponseWriter, r *http.Request) {
	if !s.checkWrite(w, r) {
		return
	}
	id, text := strings.TrimSpace(r.PostForm.Get("id")), strings.TrimSpace(r.PostForm.Get("text"))
	if text == "" {
		s.fail(w, r, http.StatusBadRequest, "Empty note", "write the note's text, then send it")
		return
	}
	if len(text) > maxNoteBytes {
		s.fail(w, r, http.StatusBadRequest, "Note too long", fmt.Sprintf("a note holds at most %d bytes", maxNoteBytes))
		return
	}
	id, err := s.live.CheckPage(id)
	if err != nil {
		s.pageError(w, r, id, err)
		return
	}
	// The write path of wiki_note.
	wr, release := s.live.AnnotationWriter()
	_, err = wr.Note(id, text)
	release()
	if err != nil && !errors.Is(err, annotate.ErrNotMirrored) {
		s.fail(w, r, http.StatusInternalServerError, "Not saved", err.Error())
		return
	}
	if err != nil {
		s.opt.Logf("note on %s: %v", id, err)
	}
	http.Redirect(w, r, serverLinks.page(id)+"#notes", http.StatusSeeOther)
}

func (s *Server) handleRemember(w http.ResponseWriter, r *http.Request) {
	if !s.checkWrite(w, r) {
		return
	}
	f := r.PostForm
	fact := strings.TrimSpace(f.Get("fact"))
	if fact == "" {
		s.fail(w, r, http.StatusBadRequest, "Empty memory", "write the fact to remember, then send it")
		return
	}
	if len(fact) > maxNoteBytes {
		s.fail(w, r, http.StatusBadRequest, "Memory too long", fmt.Sprintf("a memory holds at most %d bytes", maxNoteBytes))
		return
	}
	link := strings.TrimSpace(f.Get("link"))
	if link != "" {
		var err error
		if link, err = s.live.CheckPage(link); err != nil {
			s.pageError(w, r, link, err)
			return
		}
	}
	// The write path of wiki_remember.
	wr, release := s.live.AnnotationWriter()
	id, err := wr.Remember(annotate.Memory{Text: fact, Category: strings.TrimSpace(f.Get("category")), Title: strings.TrimSpace(f.Get("title")), Link: link})
	release()
	if err != nil && !errors.Is(err, annotate.ErrNotMirrored) {
		s.fail(w, r, http.StatusInternalServerError, "Not saved", err.Error())
		return
	}
	http.Redirect(w, r, serverLinks.page(id), http.StatusSeeOther)
}

// send renders template name with v and writes it.
func (s *Server) send(w http.ResponseWriter, r *http.Request, name string, v any) {
	var b bytes.Buffer
	if err := render(&b, name, v); err != nil {
		s.opt.Logf("render %s: %v", name, err)
		http.Error(w, "render error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	write(w, http.StatusOK, b.Bytes())
}
