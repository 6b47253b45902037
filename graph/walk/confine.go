package walk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Confine resolves the repo-relative path p, as a user or an agent gave it,
// inside root: no absolute paths, no "..", no NUL or backslash, nothing
// inside .git or a top-level folder named in hidden (the index), and no
// symlink leading outside root. It returns the real path and the clean
// relative one. A path that does not exist is an error wrapping
// fs.ErrNotExist.
func Confine(root, p string, hidden ...string) (abs, rel string, err error) {
	switch {
	case p == "":
		return "", "", errors.New("empty path: give a repo-relative path such as cli/main.go")
	case strings.ContainsRune(p, 0):
		return "", "", errors.New("the path contains NUL")
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") || filepath.IsAbs(p) || (len(p) > 1 && p[1] == ':'):
		return "", "", fmt.Errorf("%q is absolute: give a path relative to the repository root", p)
	case strings.ContainsRune(p, '\\'):
		return "", "", fmt.Errorf("%q contains a backslash: use / between directories", p)
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return "", "", fmt.Errorf("%q leaves the repository (..): paths are relative to the repository root", p)
		}
	}
	rel = path.Clean(p)
	first, _, _ := strings.Cut(rel, "/")
	if first == ".git" || slices.Contains(hidden, first) {
		return "", "", fmt.Errorf("%q is inside %s, which is not part of the source", p, first)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", "", fmt.Errorf("repository root %s: %w", root, err)
	}
	abs, err = filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(rel)))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", "", fmt.Errorf("no file %q in the repository: %w", p, fs.ErrNotExist)
		}
		return "", "", fmt.Errorf("cannot resolve %q: %v", p, err)
	}
	if abs != realRoot && !strings.HasPrefix(abs, realRoot+string(filepath.Separator)) {
		return "", "", fmt.Errorf("%q is a symlink that leads outside the repository", p)
	}
	return abs, rel, nil
}
