//go:build !unix

package graph

// lookOf has no change time to go by here: every file is hashed.
func lookOf(p string) (sealLook, bool) { return sealLook{}, false }
