package wiki

import (
	"fmt"
	"sort"
)

// CountsLine formats counts as "a 1, b 2" in the given order (nil: by count, descending).
func CountsLine(m map[string]int, order []string) string {
	if order == nil {
		for k := range m {
			order = append(order, k)
		}
		sort.Slice(order, func(i, j int) bool {
			if m[order[i]] != m[order[j]] {
				return m[order[i]] > m[order[j]]
			}
			return order[i] < order[j]
		})
	}
	s := ""
	for _, k := range order {
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", k, m[k])
	}
	return s
}

// HumanBytes formats a byte count with a binary unit.
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
