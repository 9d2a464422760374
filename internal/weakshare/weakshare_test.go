package weakshare

import (
	"runtime"
	"testing"
	"time"
)

type value struct{ s string }

func TestShareGivesTheLiveValue(t *testing.T) {
	var tab Table[string, value]
	a := tab.Share("k", &value{"a"})
	b := tab.Share("k", &value{"b"})
	if a != b || b.s != "a" {
		t.Errorf("the second Share got %p %q, want the first value %p", b, b.s, a)
	}
	if c := tab.Share("other", &value{"c"}); c == a || c.s != "c" {
		t.Errorf("another key got %p %q", c, c.s)
	}
	if tab.Get("k") != a || tab.Get("none") != nil {
		t.Error("Get does not give what Share recorded")
	}
	runtime.KeepAlive(a)
}

// Once nothing holds a shared value it is freed and its entry goes.
func TestShareDropsWhatNobodyHolds(t *testing.T) {
	var tab Table[string, value]
	func() { tab.Share("k", &value{"a"}) }()
	if !tab.Has("k") {
		t.Fatal("no entry after Share")
	}
	// The cleanup runs after a collection, on the runtime's goroutine:
	// there is no event to wait on, so the condition is polled.
	deadline := time.Now().Add(10 * time.Second)
	for tab.Has("k") {
		if time.Now().After(deadline) {
			t.Fatal("the entry of a value nothing holds is still there after 10 s")
		}
		runtime.GC()
		runtime.Gosched()
	}
	if v := tab.Share("k", &value{"b"}); v.s != "b" {
		t.Errorf("Share after the drop gave %q, want the new value", v.s)
	}
}
