package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

type statusIn struct{}

func (s *Server) addStatus() {
	addTool(s, &sdk.Tool{Name: "wiki_status", Description: "Index health: counts, last build, stale files, notes."}, true, nil, s.status)
}

func (s *Server) status(ctx context.Context, c *call, _ statusIn) (string, *wiki.Status, error) {
	a, _ := s.authoredData()
	opt := wiki.StatusOptions{Walk: s.live.WalkOptions()}
	if s.opt.CheckEvery >= 0 {
		opt.Stale = func() ([]string, int, bool) {
			f := s.live.Freshness()
			return f.Stale, f.StaleCount, f.Checked
		}
	}
	st, err := wiki.CollectStatus(c.g.Snap, a, opt)
	if err != nil {
		return "", nil, err
	}
	f := s.live.Freshness()
	st.Building, st.BuildError, st.Watching = f.Building, f.BuildError, s.live.Watching()
	if st.Watching == wiki.WatchPartial || st.Watching == wiki.WatchPolling {
		watched, dirs, poll := s.live.WatchDetail()
		st.PollSeconds = poll.Seconds()
		if st.Watching == wiki.WatchPartial {
			st.WatchedDirs, st.Dirs = watched, dirs
		}
	}
	var b strings.Builder
	wiki.RenderStatus(&b, st)
	return b.String(), st, nil
}
