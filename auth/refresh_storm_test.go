package auth

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// refreshCount counts the refresh grants w's token endpoint got.
func refreshCount(w *world) int {
	n := 0
	for _, g := range grantTypes(w) {
		if g == "refresh_token" {
			n++
		}
	}
	return n
}

// A token that lives 30 s or less sits inside the expiry skew from the
// moment it is issued. It is used as it is until refreshFloor has passed
// (or it expires), then refreshed once however many requests run at the
// time; a server that rejects it (401) gets a refresh at once.
func TestShortLivedTokenCausesNoRefreshStorm(t *testing.T) {
	for _, lifetime := range []int{30, 5} {
		w := newWorld(t)
		w.issueRefresh, w.expiresIn = true, lifetime
		clk := newClock()
		a := newAuth(t, w, &Options{now: clk.now})
		for range 10 {
			mustCall(t, w, a, "ping")
		}
		if got := strings.Join(grantTypes(w), ","); got != "authorization_code" {
			t.Fatalf("%d s token, 10 calls at once: token requests %s, want only the sign-in", lifetime, got)
		}

		// Past the floor, concurrent requests share one refresh.
		clk.advance(refreshFloor)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { mustCall(t, w, a, "ping") })
		}
		wg.Wait()
		if n := refreshCount(w); n != 1 {
			t.Errorf("%d s token, 8 concurrent calls past the floor: %d refreshes, want 1", lifetime, n)
		}
		clk.advance(2 * time.Second)
		mustCall(t, w, a, "ping")
		if n := refreshCount(w); n != 1 {
			t.Errorf("%d s token, a call within the floor of the refresh: %d refreshes, want still 1", lifetime, n)
		}

		// The server rejects the token: refreshed at once, floor or not.
		w.mu.Lock()
		clear(w.tokens)
		w.mu.Unlock()
		mustCall(t, w, a, "ping")
		if n := refreshCount(w); n != 2 || w.authorizeCount() != 1 {
			t.Errorf("%d s token rejected by the server: %d refreshes, %d sign-ins; want 2 and 1", lifetime, n, w.authorizeCount())
		}
	}
}

// The floor does not keep a long-lived token past the skew: one loaded
// from the store or refreshed long ago is refreshed as before.
func TestRefreshFloorKeepsTheSkew(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 3600
	clk := newClock()
	a := newAuth(t, w, &Options{now: clk.now})
	mustCall(t, w, a, "ping")
	clk.advance(time.Hour - expirySkew + time.Second)
	mustCall(t, w, a, "ping")
	if n := refreshCount(w); n != 1 {
		t.Errorf("refreshes = %d, want 1", n)
	}
}
