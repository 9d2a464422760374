package main

import (
	"math"
	"slices"
	"time"
)

// median of xs (NaN for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// spread is half the range of xs as a fraction of its median: "± 3%"
// means every sample fell within 3% of the median either way, at most.
func spread(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := median(xs)
	if m == 0 {
		return 0
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	return (hi - lo) / 2 / math.Abs(m)
}

// percentile of durations (p in 0..100), in microseconds; ds is sorted in
// place.
func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return math.NaN()
	}
	slices.Sort(ds)
	i := int(math.Ceil(p/100*float64(len(ds)))) - 1
	i = max(0, min(i, len(ds)-1))
	return float64(ds[i]) / float64(time.Microsecond)
}
