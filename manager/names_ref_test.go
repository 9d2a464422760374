package manager

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// referenceNames is the naming rule written the plain way (sort every
// ref, hand out plain names, then suffixes), kept as the oracle for the
// faster assignment the manager uses.
func referenceNames(refs []toolRef) map[toolRef]string {
	sorted := slices.Clone(refs)
	slices.SortFunc(sorted, func(a, b toolRef) int {
		return cmp.Or(strings.Compare(a.server, b.server), strings.Compare(a.tool, b.tool))
	})
	sorted = slices.Compact(sorted)
	names := make(map[toolRef]string, len(sorted))
	taken := make(map[string]bool, len(sorted))
	var losers []toolRef
	for _, r := range sorted {
		n := ToolName(r.server, r.tool)
		if taken[n] {
			losers = append(losers, r)
			continue
		}
		taken[n] = true
		names[r] = n
	}
	for _, r := range losers {
		base := ToolName(r.server, r.tool)
		for k := 2; ; k++ {
			n := withSuffix(base, k)
			if !taken[n] {
				taken[n] = true
				names[r] = n
				break
			}
		}
	}
	return names
}

// collidingRefs returns n refs drawn from names built to collide: servers
// and tools that sanitize alike, tools that look like suffixed names, and
// long names that are cut.
func collidingRefs(rng *rand.Rand, n int) []toolRef {
	servers := []string{"a.b", "a_b", "a b", "a/b", "x", "y.z", "y_z", strings.Repeat("s", 50), strings.Repeat("s", 49) + "."}
	tools := []string{"run", "run_2", "run_3", "run.2", "r-n", "r.n", "r_n", "t", "ünï", "___",
		strings.Repeat("n", 55), strings.Repeat("n", 54) + ".", strings.Repeat("n", 70), strings.Repeat("n", 70) + "!"}
	refs := make([]toolRef, n)
	for i := range refs {
		refs[i] = toolRef{servers[rng.IntN(len(servers))], tools[rng.IntN(len(tools))]}
		if rng.IntN(4) == 0 {
			refs[i].tool += strconv.Itoa(rng.IntN(3))
		}
	}
	return refs
}

func TestAssignNamesMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		refs := collidingRefs(rng, 1+rng.IntN(60))
		want := referenceNames(refs)
		got := assignNames(refs)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d names, want %d", round, len(got), len(want))
		}
		for r, w := range want {
			if got[r] != w {
				t.Fatalf("round %d: %v named %q, want %q (refs %v)", round, r, got[r], w, refs)
			}
		}
	}
}

func BenchmarkAssignNames(b *testing.B) {
	var refs []toolRef
	for i := range 20 {
		for j := range 1000 {
			refs = append(refs, toolRef{fmt.Sprintf("s%d", i), fmt.Sprintf("tool_%04d", j)})
		}
	}
	for b.Loop() {
		if len(assignNames(refs)) != len(refs) {
			b.Fatal("names")
		}
	}
}
