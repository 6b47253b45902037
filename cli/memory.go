package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

func runMemory(e *env, args []string) error {
	fs := newFlags(e, "memory")
	asJSON := fs.Bool("json", false, "print what was done as JSON")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 || pos[0] != "export" && pos[0] != "import" {
		return usagef("memory needs export or import, e.g. wikitoolkit memory export (to %s/) or wikitoolkit memory import DIR", annotate.SharedDirName)
	}
	root, dir := e.rootAndIndex()
	shared := annotate.SharedDir(root)
	folder := shared
	if len(pos) == 2 {
		if folder, err = filepath.Abs(pos[1]); err != nil {
			return err
		}
	}
	if pos[0] == "export" {
		m, n, err := annotate.ExportShared(dir, folder)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, map[string]any{"dir": folder, "memories": m, "notes": n})
		}
		fmt.Fprintf(e.stdout, "exported %d memories and %d notes to %s\n", m, n, folder)
		return nil
	}
	if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot import from %s: not a folder (give the folder 'memory export' wrote, e.g. %s/)", folder, annotate.SharedDirName)
	}
	res, err := annotate.ImportShared(dir, folder, shared)
	if err = warnNotMirrored(e, err); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, map[string]any{"dir": folder, "memories": res.Memories, "notes": res.Notes, "errors": res.Errors})
	}
	fmt.Fprintf(e.stdout, "imported %d memories and %d notes (new or changed) from %s\n", res.Memories, res.Notes, folder)
	for _, s := range res.Errors {
		fmt.Fprintf(e.stdout, "  skipped %s: %s\n", s.Path, s.Reason)
	}
	return nil
}
