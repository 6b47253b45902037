package graph

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// lastBuildName is the file in the index directory that holds the info of
// the last build when that build wrote no generation (nothing changed): its
// skipped files and what it did not index would be lost otherwise, and
// status would show the older build's lists.
const lastBuildName = "lastbuild.json"

// saveLastBuild records info for readers of generation info.Generation.
// Best effort: without it status shows the generation's own build.
func saveLastBuild(dir string, info *BuildInfo) {
	b, err := json.Marshal(info)
	if err != nil {
		return
	}
	writeCacheFile(filepath.Join(dir, lastBuildName), b)
}

// removeLastBuild drops the record once a build writes a generation.
func removeLastBuild(dir string) { os.Remove(filepath.Join(dir, lastBuildName)) }

// overlayLastBuild returns the info of the last build of generation n:
// the recorded one when a later build that wrote nothing left one for this
// generation, else info.
func overlayLastBuild(dir string, n int, info BuildInfo) BuildInfo {
	b, err := os.ReadFile(filepath.Join(dir, lastBuildName))
	if err != nil {
		return info
	}
	var last BuildInfo
	if json.Unmarshal(b, &last) != nil || last.Generation != n || !last.Started.After(info.Started) || last.Format != info.Format {
		return info
	}
	return last
}
