package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPBearerToken(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, fixture)
	dir := buildIndex(t, root)
	srv, err := New(Options{IndexDir: dir, CheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.HTTPHandler("0.0.0.0:8765", ""); err == nil {
		t.Error("non-loopback address without a token accepted")
	}
	h, err := srv.HTTPHandler("0.0.0.0:8765", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	connect := func(token string) (*sdk.ClientSession, error) {
		tr := &sdk.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
		return sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), tr, nil)
	}
	if cs, err := connect("wrong"); err == nil {
		cs.Close()
		t.Error("wrong token accepted")
	}
	cs, err := connect("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "Charge"}})
	if err != nil || res.IsError {
		t.Fatalf("query over HTTP: %v %+v", err, res)
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: PageURI("file:pay/retry.go")}); err != nil {
		t.Errorf("resource over HTTP: %v", err)
	}
	// Loopback needs no token.
	if _, err := srv.HTTPHandler("127.0.0.1:0", ""); err != nil {
		t.Error(err)
	}
}
