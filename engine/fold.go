package engine

// foldCache is the group foldPage folded the last page into: pages come
// in page order (foldDense) or in a posting list's order, and a file's
// members follow it, so most pages fold into the group of the page
// before, found again without reading its slot.
type foldCache struct {
	gp uint32    // the group page, ^0 before the first page
	g  *groupAcc // its accumulator; valid until the next append to groups, which sets gp anew
}

// foldPage folds one scored page into its group, appending a new group
// to *groups (s.groups, or a half's: foldDenseHalves).
func (ix *Index) foldPage(s *scratch, groups *[]groupAcc, p uint32, c *foldCache) {
	gp := ix.group[p]
	g := c.g
	if gp != c.gp {
		gi := s.slot[gp]
		if gi == 0 {
			*groups = append(*groups, groupAcc{page: gp})
			gi = int32(len(*groups))
			s.slot[gp] = gi
		}
		g = &(*groups)[gi-1]
		c.gp, c.g = gp, g
	}
	sc32 := s.score[p]
	if p == gp {
		g.own = float64(sc32)
		return
	}
	g.nMember++
	s.next[p] = g.head
	g.head = p + 1
	if sc32 < g.top[2] {
		return // below the best three (top is in descending order)
	}
	for k := range g.top {
		if sc32 > g.top[k] || sc32 == g.top[k] && g.top[k] > 0 && p < g.topPage[k] {
			copy(g.top[k+1:], g.top[k:len(g.top)-1])
			copy(g.topPage[k+1:], g.topPage[k:len(g.topPage)-1])
			g.top[k], g.topPage[k] = sc32, p
			break
		}
	}
}
