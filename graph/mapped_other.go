//go:build !linux

package graph

// ReleaseMapped does nothing here: it releases mapped table pages on Linux
// (mapped_linux.go).
func (s *Snapshot) ReleaseMapped() {}

// releaseMapped does nothing here (see ReleaseMapped).
func releaseMapped([]string) {}

// releaseMapped does nothing here (see ReleaseMapped).
func (o *openSeg) releaseMapped() {}
