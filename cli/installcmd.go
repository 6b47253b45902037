package cli

import (
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// modulePath is this program's Go module, as recorded in its binaries.
const modulePath = "github.com/wikitoolkit/wikitoolkit"

// installCommand chooses the command install writes into the clients'
// configs. .mcp.json and AGENTS.md are committed, so the command must work
// on other machines and after the next build: "wikitoolkit" when that name
// on PATH is a wikitoolkit binary; otherwise the running binary's absolute
// path, unless that is a build-cache path (`go run .`), which vanishes. The
// note, when not "", tells the user something worth knowing.
func installCommand(exe string) (cmd, note string, err error) {
	onPath, pathErr := exec.LookPath(serverName)
	if pathErr == nil {
		if abs, err := filepath.Abs(onPath); err == nil {
			onPath = abs
		}
		if r, err := filepath.EvalSymlinks(onPath); err == nil {
			onPath = r
		}
		if sameFile(onPath, exe) {
			return serverName, "", nil
		}
		if isWikitoolkit(onPath) {
			return serverName, fmt.Sprintf("note: the configs run %q, which is %s on PATH, not this binary (%s)", serverName, onPath, exe), nil
		}
	}
	if inBuildCache(exe) {
		return "", "", fmt.Errorf("this wikitoolkit runs from Go's build cache (%s), as `go run` leaves it; that path vanishes, so install will not write it into "+
			"the clients' configs. Install the binary and put it on PATH: `go install .` (into $(go env GOPATH)/bin) or `go build -o ~/bin/wikitoolkit .`, "+
			"then run `wikitoolkit install`", exe)
	}
	why := "wikitoolkit is not on PATH"
	if pathErr == nil {
		why = fmt.Sprintf("%s on PATH is not a wikitoolkit binary", onPath)
	}
	return exe, fmt.Sprintf("note: %s, so the configs name this binary's absolute path %s, which works on this machine only; "+
		"put its directory on PATH and run install again to write \"wikitoolkit\" instead", why, exe), nil
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// isWikitoolkit reports whether the executable at p was built from this
// module (read from its Go build info, without running it).
func isWikitoolkit(p string) bool {
	bi, err := buildinfo.ReadFile(p)
	return err == nil && (bi.Main.Path == modulePath || bi.Path == modulePath || strings.HasPrefix(bi.Path, modulePath+"/"))
}

// goBuildTemp matches the temporary work directories of the go command.
var goBuildTemp = regexp.MustCompile(`^go-build[0-9]+$`)

// inBuildCache reports whether exe lives in a go-build temporary directory
// or under the Go build cache (GOCACHE, its default, or `go env GOCACHE`).
func inBuildCache(exe string) bool {
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if goBuildTemp.MatchString(part) {
			return true
		}
	}
	var caches []string
	if c := os.Getenv("GOCACHE"); c != "" && c != "off" {
		caches = append(caches, c)
	}
	if d, err := os.UserCacheDir(); err == nil {
		caches = append(caches, filepath.Join(d, "go-build"))
	}
	if goBin, err := exec.LookPath("go"); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := exec.CommandContext(ctx, goBin, "env", "GOCACHE").Output()
		cancel()
		if c := strings.TrimSpace(string(out)); err == nil && c != "" && c != "off" {
			caches = append(caches, c)
		}
	}
	for _, c := range caches {
		if r, err := filepath.EvalSymlinks(c); err == nil {
			c = r
		}
		if rel, err := filepath.Rel(c, exe); err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
