package server

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A caller that sends bad session ids in a loop gets each refused, but
// writes at most warnBurst lines a warnWindow to the operator's log; the
// first line after a window that held some back says how many.
func TestRefusedSessionWarningsAreBounded(t *testing.T) {
	var w warnings
	b := replica(t, &w, testKey(7))
	for i := range 3 * warnBurst {
		c := newHTTPClient(t, b)
		c.session, c.version = sealedPrefix+"!!!!", LatestProtocolVersion
		if resp, _ := c.post("tools/list", nil); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("request %d: status %d, want 404", i, resp.StatusCode)
		}
	}
	errs := w.all()
	if len(errs) != warnBurst {
		t.Fatalf("%d warnings for %d refused ids, want %d", len(errs), 3*warnBurst, warnBurst)
	}
	for _, err := range errs {
		if !errors.Is(err, errSealedID) {
			t.Errorf("warning %v", err)
		}
	}
}

func TestWarnLimitWindows(t *testing.T) {
	var l warnLimit
	t0 := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	for i := range warnBurst {
		if ok, note := l.admit(t0.Add(time.Duration(i) * time.Second)); !ok || note != "" {
			t.Fatalf("warning %d of the first window: ok %v, note %q", i, ok, note)
		}
	}
	for i := range 5 {
		if ok, _ := l.admit(t0.Add(30*time.Second + time.Duration(i))); ok {
			t.Fatalf("warning %d past the burst went out", warnBurst+i)
		}
	}
	ok, note := l.admit(t0.Add(warnWindow))
	if !ok || !strings.Contains(note, "5 more refused since the last shown") {
		t.Fatalf("first warning of the next window: ok %v, note %q", ok, note)
	}
	if ok, note := l.admit(t0.Add(warnWindow + time.Second)); !ok || note != "" {
		t.Fatalf("second warning of the next window: ok %v, note %q", ok, note)
	}
}
