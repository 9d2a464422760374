package jsonrpc

import (
	"slices"
	"testing"
)

// TestPendingCalls walks the set through one call, a second at once (which
// makes the map), and back, checking what each lookup sees.
func TestPendingCalls(t *testing.T) {
	var pc pendingCalls
	a, b, c := &pendingCall{id: 1}, &pendingCall{id: 2}, &pendingCall{id: 3}
	pc.put(1, a)
	if pc.get(1) != a || pc.get(2) != nil || pc.len() != 1 || pc.many != nil {
		t.Fatalf("one call: get(1)=%p get(2)=%p len=%d many=%v", pc.get(1), pc.get(2), pc.len(), pc.many)
	}
	pc.del(1)
	pc.put(2, b)
	if pc.get(1) != nil || pc.get(2) != b || pc.many != nil {
		t.Fatal("a sequential second call should reuse the field, not make the map")
	}
	pc.put(3, c)
	if pc.get(2) != b || pc.get(3) != c || pc.len() != 2 || pc.many == nil || pc.one != nil {
		t.Fatalf("two at once: len=%d one=%p many=%v", pc.len(), pc.one, pc.many)
	}
	if got := pc.ids(); !slices.Equal(got, []int64{2, 3}) {
		t.Fatalf("ids = %v, want [2 3]", got)
	}
	pc.del(2)
	pc.put(1, a) // the map, once made, takes every call
	if pc.one != nil || pc.get(1) != a || pc.len() != 2 {
		t.Fatal("after the map was made, a call went to the field")
	}
	all := pc.takeAll()
	if len(all) != 2 || pc.len() != 0 || pc.get(1) != nil || pc.get(3) != nil {
		t.Fatalf("takeAll returned %d, left len %d", len(all), pc.len())
	}
}
