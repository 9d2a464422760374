package cli

import (
	"fmt"
	"slices"
	"strings"
)

// didYouMean is `; did you mean "x"?` naming the candidates closest to
// name (at most three, by edit distance, close enough to be a typo), or
// "" when none is.
func didYouMean(name string, candidates []string) string {
	type scored struct {
		s string
		d int
	}
	var near []scored
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		limit := max(1, min(len(name), len(c))/3)
		if d <= limit || (len(name) >= 3 && strings.Contains(strings.ToLower(c), strings.ToLower(name))) {
			near = append(near, scored{c, d})
		}
	}
	if len(near) == 0 {
		return ""
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	var quoted []string
	for i, n := range near {
		if i == 3 {
			break
		}
		quoted = append(quoted, fmt.Sprintf("%q", n.s))
	}
	return "; did you mean " + strings.Join(quoted, " or ") + "?"
}

// editDistance is the edit distance between a and b, in bytes, with a
// swap of two neighbours counting as one edit (the commonest typo).
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
