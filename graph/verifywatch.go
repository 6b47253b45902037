package graph

import (
	"slices"
	"sync/atomic"
)

// verifyStatPasses counts Verify's stat passes, for tests asserting that
// a call while nothing changed runs none (counted, not timed).
var verifyStatPasses atomic.Int64

// unchanged reports whether Verify may skip its stat pass: its watch
// (verifyWatch) saw no change since the last call, and watches the
// folders of every segment open now. The first call, and a call after
// more segments opened, sets the watch up (or adds their folders) and
// answers false: the stat pass then runs after the watch began, so that
// no change falls between them. Called with verifyMu held.
func (s *Snapshot) unchanged() bool {
	if s.watch != nil && slices.Equal(s.watched, s.segs) {
		return !s.watch.changed()
	}
	dirs := make([]string, 0, len(s.segs)+1)
	for _, sg := range s.segs {
		if !slices.Contains(s.watched, sg) {
			dirs = append(dirs, sg.dir)
		}
	}
	switch {
	case s.watch != nil:
		if !s.watch.add(dirs) {
			s.dropWatch()
			return false
		}
	case s.watchTry:
		return false // no watch to be had: stat every time
	default:
		s.watchTry = true
		if s.watch = newVerifyWatch(append(dirs, genDir(s.Dir, s.Generation))); s.watch == nil {
			return false
		}
	}
	s.watched = slices.Clone(s.segs)
	s.watch.changed() // drained: the stat pass that follows sees what they said
	return false
}

// closeWatch releases Verify's watch (Close); Verify then stats every
// time.
func (s *Snapshot) closeWatch() {
	s.verifyMu.Lock()
	defer s.verifyMu.Unlock()
	s.dropWatch()
}

// dropWatch is closeWatch with verifyMu held.
func (s *Snapshot) dropWatch() {
	if s.watch != nil {
		s.watch.close()
		s.watch, s.watched = nil, nil
	}
	s.watchTry = true
}
