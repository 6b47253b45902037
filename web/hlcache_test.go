package web

import (
	"strings"
	"testing"
	"unsafe"
)

// TestHLCacheKeepsNoPageText: the cache of highlighted windows keys them by
// copies of the path and language it is given. Those are strings of a
// segment's page text (wiki.Page aliases it), and a key kept in the cache
// would keep the whole text alive.
func TestHLCacheKeepsNoPageText(t *testing.T) {
	text := strings.Repeat("x", 1<<20) + "pkg/a.go" + "go"
	path, lang := text[1<<20:1<<20+8], text[1<<20+8:]
	c := newHLCache(1 << 20)
	c.put(hlKey{path: path, lang: lang, from: 1, size: 3, hash: 7}, "<pre>x</pre>")
	if h, ok := c.get(hlKey{path: "pkg/a.go", lang: "go", from: 1, size: 3, hash: 7}); !ok || h != "<pre>x</pre>" {
		t.Fatalf("get = %q, %v; want the HTML put", h, ok)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	hi := lo + uintptr(len(text))
	for k := range c.items {
		for _, s := range []string{k.path, k.lang} {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); p >= lo && p < hi {
				t.Errorf("the cache's key %q is a string of the text it was cut from", s)
			}
		}
	}
}
