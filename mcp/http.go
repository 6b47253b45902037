package mcp

import (
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// IsLoopback reports whether a listen address only accepts local
// connections (127.0.0.0/8, ::1, localhost).
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// HTTPHandler returns the streamable HTTP handler of the server. With a
// non-empty token every request must carry "Authorization: Bearer <token>".
// A non-loopback addr without a token is refused: the tools read the
// repository's files.
func (s *Server) HTTPHandler(addr, token string) (http.Handler, error) {
	if token == "" && !IsLoopback(addr) {
		return nil, errors.New("serving on a non-loopback address needs a bearer token: --token-file FILE or WIKITOOLKIT_TOKEN")
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		// Remote clients reach a non-loopback address by its real host name.
		DisableLocalhostProtection: !IsLoopback(addr),
	})
	if token == "" {
		return h, nil
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(strings.TrimSpace(r.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="wikitoolkit"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}), nil
}
