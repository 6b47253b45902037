package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// exportMarker is the file an export leaves in its folder, so that a later
// export knows the folder is its own to replace.
const exportMarker = ".wikitoolkit-export"

// exportTops are what an export writes at its folder's top; a later export
// removes exactly these.
var exportTops = []string{"index.html", "static", "module", "file", "symbol", "doc", "memory", exportMarker}

// ExportResult counts what Export wrote.
type ExportResult struct {
	Dir   string `json:"dir"`
	Pages int    `json:"pages"`
	Files int    `json:"files"` // HTML files: pages plus the further windows of long files
	Bytes int64  `json:"bytes"`
}

// Export writes the wiki of the live generation into dir as static HTML
// with relative links (no search, no forms): index.html, one file per page
// (exportPath) and per further source window, and static/style.css. dir
// must be new, empty, or a previous export (it holds exportMarker), whose
// files are replaced; anything else is refused.
func (s *Server) Export(ctx context.Context, dir string) (*ExportResult, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := prepareExportDir(dir); err != nil {
		return nil, err
	}
	g, release, err := s.live.Acquire()
	if err != nil {
		return nil, err
	}
	defer release()
	a, _ := s.live.Annotations()
	gr, err := g.Snap.Graph()
	if err != nil {
		return nil, err
	}
	res := &ExportResult{Dir: dir}
	put := func(rel string, b []byte) error {
		full := filepath.Join(dir, filepath.FromSlash(rel))
		if !strings.HasPrefix(full, dir+string(filepath.Separator)) {
			return fmt.Errorf("export: %q would be written outside %s", rel, dir)
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		res.Bytes += int64(len(b))
		return os.WriteFile(full, b, 0o644)
	}
	if err := put("static/style.css", []byte(stylesheet())); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	home, err := s.buildHome(g, a, exportLinks("index.html"))
	if err != nil {
		return nil, err
	}
	if err := render(&b, "home", home); err != nil {
		return nil, err
	}
	if err := put("index.html", b.Bytes()); err != nil {
		return nil, err
	}
	page := func(id string) error {
		rel, err := exportPath(id)
		if err != nil {
			return err
		}
		for from := 1; ; {
			v, err := s.buildPage(g, a, id, from, exportLinks(rel), gr)
			if err != nil {
				return fmt.Errorf("export %s: %w", id, err)
			}
			b.Reset()
			if err := render(&b, "page", v); err != nil {
				return fmt.Errorf("export %s: %w", id, err)
			}
			if err := put(rel, b.Bytes()); err != nil {
				return err
			}
			res.Files++
			if v.Kind != "file" || v.Source == nil || v.Source.Next == "" {
				break
			}
			from = v.Source.To + 1
			if rel, err = exportWindowPath(id, from); err != nil {
				return err
			}
		}
		res.Pages++
		return nil
	}
	for i := range gr.Pages {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err := page(gr.Pages[i].ID); err != nil {
			return nil, err
		}
	}
	if a != nil {
		for _, m := range a.Memories() {
			if err := page(m.ID()); err != nil {
				return nil, err
			}
		}
	}
	if err := put(exportMarker, []byte("written by wikitoolkit web --export; the next export replaces this folder's pages\n")); err != nil {
		return nil, err
	}
	return res, nil
}

// prepareExportDir makes dir ready: created when missing; a previous
// export's files removed; refused when it holds anything else.
func prepareExportDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("export into %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, exportMarker)); err != nil {
		return fmt.Errorf("%s is not empty and holds no previous export (no %s file): give a new or empty folder, or remove its contents first", dir, exportMarker)
	}
	for _, e := range entries {
		known := false
		for _, t := range exportTops {
			known = known || e.Name() == t
		}
		if !known {
			return fmt.Errorf("%s holds a previous export and also %q, which an export does not write: move it away, or export into a new folder", dir, e.Name())
		}
	}
	for _, t := range exportTops {
		if err := os.RemoveAll(filepath.Join(dir, t)); err != nil {
			return fmt.Errorf("remove the previous export's %s: %w", t, err)
		}
	}
	return nil
}
