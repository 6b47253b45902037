package cli

import (
	"os"
	"path/filepath"
	"strings"
)

// cwdBase returns the current folder relative to root as a slash path, ""
// at the root or outside it. Paths a command takes are relative to it
// first, as git takes them.
func cwdBase(root string) string {
	wd, err := os.Getwd()
	if err != nil || root == "" {
		return ""
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(rootAbs); err == nil {
		rootAbs = r
	}
	if w, err := filepath.EvalSymlinks(wd); err == nil {
		wd = w
	}
	rel, err := filepath.Rel(rootAbs, wd)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// repoRef turns an absolute path inside root into a repository path and
// leaves any other reference as it is (an absolute path outside root is
// then refused by whoever reads it).
func repoRef(root, ref string) string {
	if !filepath.IsAbs(ref) || root == "" {
		return ref
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return ref
	}
	rel, err := filepath.Rel(rootAbs, ref)
	if err != nil {
		if r, err2 := filepath.EvalSymlinks(rootAbs); err2 == nil {
			rel, err = filepath.Rel(r, ref)
		}
	}
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ref
	}
	return filepath.ToSlash(rel)
}

// repoPath returns the repository path of a file path typed in the current
// folder: taken from the folder when that names something, else from the
// root (paths printed by search and query are root-relative). A path that
// leaves the root stays as it is, for walk.Confine to refuse.
func repoPath(root, p string) string {
	p = repoRef(root, p)
	if filepath.IsAbs(p) {
		return p
	}
	base := cwdBase(root)
	if base == "" {
		return p
	}
	joined := filepath.ToSlash(filepath.Join(filepath.FromSlash(base), filepath.FromSlash(p)))
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return joined
	}
	if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(joined))); err == nil {
		return joined
	}
	if strings.Contains(p, "..") {
		return joined // relative to the folder only: "../x" means the folder's parent
	}
	if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
		return p
	}
	return joined
}

// pageRef prepares a page reference typed in the current folder for
// wiki.LoadPage and wiki.CheckPage: an absolute path becomes a repository
// path, and base is the current folder inside the indexed root.
func pageRef(root, ref string) (string, string) {
	return repoRef(root, ref), cwdBase(root)
}
