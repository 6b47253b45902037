package cli

// closestCommand returns the command name nearest to name (at most two
// edits, or one for short names, a swap of neighbours counting as one),
// or "".
func closestCommand(name string) string {
	best, bestD := "", 3
	for _, c := range commands {
		d := editDistance(name, c.name)
		if len(name) <= 3 && d > 1 {
			continue
		}
		if d < bestD {
			best, bestD = c.name, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b (in
// bytes): insertions, deletions, substitutions and swaps of neighbours.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
