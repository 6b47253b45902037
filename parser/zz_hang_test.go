package parser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestZZHang(t *testing.T) {
	if os.Getenv("HANG") == "" {
		t.Skip()
	}
	var inputs [][]byte
	for _, tc := range parseCases {
		inputs = append(inputs, []byte(tc.src))
	}
	files, _ := filepath.Glob(os.Getenv("HANG") + "/*")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) >= 2 {
			s := strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")")
			if u, err := strconv.Unquote(s); err == nil {
				inputs = append(inputs, []byte(u))
			}
		}
	}
	p := NewParser()
	for i, in := range inputs {
		for _, l := range Languages() {
			t0 := time.Now()
			fmt.Printf("input %d lang %s ...", i, l)
			p.Parse(context.Background(), "x"+extByLang[l][0], in)
			fmt.Printf(" %v\n", time.Since(t0))
		}
	}
}
