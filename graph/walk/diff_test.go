package walk

import (
	"slices"
	"testing"
)

func TestDiff(t *testing.T) {
	files := []File{
		{Path: "added.go", Size: 1, ModTime: 1},
		{Path: "generated.go", Size: 5, ModTime: 5},
		{Path: "mtime.go", Size: 2, ModTime: 9},
		{Path: "same.go", Size: 3, ModTime: 3},
		{Path: "size.go", Size: 8, ModTime: 4},
	}
	indexed := map[string]Stamp{
		"gone.go":  {Size: 1, ModTime: 1},
		"mtime.go": {Size: 2, ModTime: 2},
		"same.go":  {Size: 3, ModTime: 3},
		"size.go":  {Size: 4, ModTime: 4},
		"a/gone":   {Size: 1, ModTime: 1},
	}
	paths := func(fs []File) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Path)
		}
		return out
	}
	c := Diff(files, indexed, map[string]bool{"generated.go": true})
	for _, tt := range []struct {
		what      string
		got, want []string
	}{
		{"added", paths(c.Added), []string{"added.go"}},
		{"modified", paths(c.Modified), []string{"mtime.go", "size.go"}},
		{"removed", c.Removed, []string{"a/gone", "gone.go"}},
		{"unchanged", paths(c.Unchanged), []string{"same.go"}},
		{"paths", c.Paths(), []string{"a/gone", "added.go", "gone.go", "mtime.go", "size.go"}},
	} {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.what, tt.got, tt.want)
		}
	}
	if c.Len() != 5 {
		t.Errorf("Len = %d, want 5", c.Len())
	}
	// Without leftOut a build tries the skipped file again.
	if c := Diff(files, indexed, nil); !slices.Equal(paths(c.Added), []string{"added.go", "generated.go"}) {
		t.Errorf("nil leftOut: added %q", paths(c.Added))
	}
}
