package parser

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestInterner checks that the interner returns validString of its input,
// one string for equal bytes, through growing and resetting.
func TestInterner(t *testing.T) {
	var in interner
	first := map[string]string{}
	for i := range 3 * internSlots {
		k := "name" + strconv.Itoa(i%(2*internSlots))
		got := in.get([]byte(k))
		if got != k {
			t.Fatalf("get(%q) = %q", k, got)
		}
		if s, ok := first[k]; ok && unsafe.StringData(s) != unsafe.StringData(got) {
			t.Fatalf("get(%q) returned a new string", k)
		}
		first[k] = got
	}
	if got := in.get(nil); got != "" {
		t.Errorf("get(nil) = %q", got)
	}
	if got := in.get([]byte("a\xffb")); got != "a\uFFFDb" {
		t.Errorf("get(invalid) = %q", got)
	}
	in.reset()
	if in.n != 0 || len(in.slots) != 0 {
		t.Errorf("reset kept %d strings", in.n)
	}
	if got := in.get([]byte("x")); got != "x" {
		t.Errorf("get after reset = %q", got)
	}
}
