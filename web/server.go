package web

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/mcp"
)

// Options configure a Server. Only IndexDir is required.
type Options struct {
	// IndexDir is the index directory (<root>/.wikitoolkit).
	IndexDir string
	// Root is the repository root; "" means the root the last build
	// recorded, or the parent of IndexDir.
	Root string
	// Build runs an incremental build (wiki.Build with the index's stored
	// options); the server calls it in the background when files changed
	// or no index exists, as the MCP server does. nil: no refresh.
	Build func(ctx context.Context) error
	// CheckEvery is the least time between two freshness checks; 0 means
	// 3 s, negative disables them.
	CheckEvery time.Duration
	// Watch notices saved files at once (wiki.LiveOptions.Watch).
	Watch bool
	// Addr is the address served, for the loopback rule: off loopback a
	// Token is required. "" is taken as loopback (tests, export).
	Addr string
	// Token, when set, must come with every request: "Authorization:
	// Bearer <token>", or the cookie a visit to any URL with
	// ?token=<token> sets.
	Token string
	// Logf receives the server's log lines. nil discards.
	Logf func(format string, a ...any)
}

// Server serves the wiki of one index as HTML, from the live index
// (wiki.Live: the generation is acquired per request and swapped when a
// build publishes a new one, as the MCP server does). Create it with New;
// it is safe for concurrent use.
type Server struct {
	opt    Options
	live   *wiki.Live
	secret []byte
	csrf   string
	stats  statsCache
}

// New returns a Server for the index in opt.IndexDir. It refuses a
// non-loopback opt.Addr without opt.Token: the pages show the repository's
// source.
func New(opt Options) (*Server, error) {
	if opt.IndexDir == "" {
		return nil, errors.New("web: no index directory")
	}
	if opt.Token == "" && opt.Addr != "" && !mcp.IsLoopback(opt.Addr) {
		return nil, errors.New("serving on a non-loopback address needs a bearer token: --token-file FILE or WIKITOOLKIT_TOKEN (or serve on 127.0.0.1)")
	}
	dir, err := filepath.Abs(opt.IndexDir)
	if err != nil {
		return nil, err
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	s := &Server{opt: opt, secret: make([]byte, 32)}
	if _, err := rand.Read(s.secret); err != nil {
		return nil, fmt.Errorf("web: random secret: %w", err)
	}
	mac := hmac.New(sha256.New, s.secret)
	mac.Write([]byte("wikitoolkit web: write form"))
	s.csrf = hex.EncodeToString(mac.Sum(nil))
	s.live, err = wiki.NewLive(wiki.LiveOptions{IndexDir: dir, Root: opt.Root, Build: opt.Build, CheckEvery: opt.CheckEvery, Watch: opt.Watch, Logf: opt.Logf})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Close stops background work and releases the open generation.
func (s *Server) Close() error { return s.live.Close() }

// Live returns the server's live view of the index.
func (s *Server) Live() *wiki.Live { return s.live }

// Handler returns the HTTP handler: GET /, /page/ID, /graph/ID,
// /search?q=, /static/style.css; POST /note and /remember.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleHome)
	mux.HandleFunc("GET /page/{id...}", s.handlePage)
	mux.HandleFunc("GET /graph/{id...}", s.handleGraph)
	mux.HandleFunc("GET /search", s.handleSearch)
	mux.HandleFunc("GET /static/style.css", s.handleCSS)
	mux.HandleFunc("POST /note", s.handleNote)
	mux.HandleFunc("POST /remember", s.handleRemember)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "No such page", fmt.Sprintf("%s is not a page of this wiki. Start from the home page or search.", r.URL.Path))
	})
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusForbidden, "Refused", "a form posted from another site is refused")
	}))
	return s.guard(cop.Handler(mux))
}

// maxURLBytes bounds a request's URL: a longer query is refused (414)
// before anything reads it.
const maxURLBytes = 8 << 10

// tokenCookie carries the bearer token in a browser.
const tokenCookie = "wikitoolkit_token"

// guard wraps every request: panics become a 500 page, the security
// headers are set, the bearer token is checked (or, without one, the Host
// must be a loopback name so that another site cannot read the pages by
// DNS rebinding), and a URL that is too long is refused.
func (s *Server) guard(next http.Handler) http.Handler {
	want := []byte(s.opt.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.opt.Logf("panic serving %s: %v\n%s", r.URL.Path, v, debug.Stack())
				s.fail(w, r, http.StatusInternalServerError, "Internal error", fmt.Sprintf("this is a wikitoolkit bug (%v); other pages still work", v))
			}
		}()
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if len(r.URL.RawQuery)+len(r.URL.RawPath)+len(r.URL.Path) > maxURLBytes {
			s.fail(w, r, http.StatusRequestURITooLong, "Request too long", fmt.Sprintf("the URL is longer than %d bytes; ask a shorter question", maxURLBytes))
			return
		}
		if len(want) > 0 {
			if t := r.URL.Query().Get("token"); t != "" && subtle.ConstantTimeCompare([]byte(t), want) == 1 {
				// A browser's first visit: keep the token in a cookie and
				// drop it from the address bar.
				http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
				q := r.URL.Query()
				q.Del("token")
				u := *r.URL
				u.RawQuery = q.Encode()
				http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
				return
			}
			if !s.authorized(r, want) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="wikitoolkit"`)
				s.fail(w, r, http.StatusUnauthorized, "Token needed", "this server needs its token: send Authorization: Bearer TOKEN, or open any page once with ?token=TOKEN")
				return
			}
		} else if !loopbackHost(r.Host) {
			s.fail(w, r, http.StatusForbidden, "Refused", fmt.Sprintf("this server answers only to localhost names, not %q (it has no token)", r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries the token, in its Authorization
// header or its cookie.
func (s *Server) authorized(r *http.Request, want []byte) bool {
	if a, ok := strings.CutPrefix(strings.TrimSpace(r.Header.Get("Authorization")), "Bearer "); ok &&
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(a)), want) == 1 {
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), want) == 1 {
		return true
	}
	return false
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// remoteLoopback reports whether the request came from this machine.
func remoteLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// acquire returns the live generation for one request, as an MCP tool call
// gets it: the call is noted (a freshness check when one is due; walks of
// the whole tree wait until it ends), a first build is waited for (a
// bounded time), and the caller must call release.
func (s *Server) acquire(r *http.Request) (*wiki.Gen, func(), error) {
	end := s.live.Call()
	s.live.WaitFirstBuild(r.Context())
	g, release, err := s.live.Acquire()
	if err != nil {
		end()
		return nil, nil, err
	}
	return g, func() { release(); end() }, nil
}

// acquireOrFail is acquire answering 503 itself when there is no index
// yet; ok is false then.
func (s *Server) acquireOrFail(w http.ResponseWriter, r *http.Request) (g *wiki.Gen, release func(), ok bool) {
	g, release, err := s.acquire(r)
	if err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, "No index yet", err.Error())
		return nil, nil, false
	}
	return g, release, true
}

// write sends a rendered page.
func write(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}

// fail answers with an error page that says what to do.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	var b bytes.Buffer
	if err := render(&b, "error", &errorView{head: s.head(serverLinks, title), Status: status, Message: msg}); err != nil {
		http.Error(w, msg, status)
		return
	}
	write(w, status, b.Bytes())
}

// head is what every page's frame needs.
func (s *Server) head(l links, title string) head {
	h := head{Title: title, CSS: l.static("style.css"), Home: l.home()}
	if !l.export {
		h.Search = "/search"
	}
	return h
}
