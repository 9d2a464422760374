package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a settable time source for token expiry.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func grantTypes(w *world) []string {
	var out []string
	for _, f := range w.tokenRequests() {
		out = append(out, f.Get("grant_type"))
	}
	return out
}

func TestExpiredTokenIsRefreshedBeforeAskingTheUser(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	a := newAuth(t, w, &Options{now: clk.now})
	mustCall(t, w, a, "ping")
	clk.advance(2 * time.Minute)
	mustCall(t, w, a, "ping")
	if got := strings.Join(grantTypes(w), ","); got != "authorization_code,refresh_token" {
		t.Errorf("token requests = %s, want a code exchange then a refresh", got)
	}
	if w.authorizeCount() != 1 {
		t.Errorf("authorizations = %d, want 1", w.authorizeCount())
	}
	f := w.tokenRequests()[1]
	if f.Get("refresh_token") != "rt-1" || f.Get("resource") != w.serverURL() || f.Get("client_id") != "dyn-client-1" {
		t.Errorf("refresh request = %v", f)
	}
	// The rotated refresh token is the one used next.
	clk.advance(2 * time.Minute)
	mustCall(t, w, a, "ping")
	if got := w.tokenRequests()[2].Get("refresh_token"); got != "rt-2" {
		t.Errorf("second refresh used %q, want the rotated rt-2", got)
	}
}

func TestTokenAboutToExpireCountsAsExpired(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	a := newAuth(t, w, &Options{now: clk.now})
	mustCall(t, w, a, "ping")
	clk.advance(60*time.Second - expirySkew + time.Second)
	mustCall(t, w, a, "ping")
	if len(w.tokenRequests()) != 2 {
		t.Errorf("a token within %v of its expiry was not refreshed", expirySkew)
	}
}

func TestRejectedTokenIsRefreshedFirst(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh = true
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	w.mu.Lock()
	delete(w.tokens, "at-1") // the server forgot the access token
	w.mu.Unlock()
	mustCall(t, w, a, "ping")
	if got := strings.Join(grantTypes(w), ","); got != "authorization_code,refresh_token" || w.authorizeCount() != 1 {
		t.Errorf("token requests = %s, authorizations %d; want one refresh and no second sign-in", got, w.authorizeCount())
	}
}

func TestRefreshFailureFallsBackToSignIn(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	a := newAuth(t, w, &Options{now: clk.now})
	mustCall(t, w, a, "ping")
	w.mu.Lock()
	clear(w.refreshes) // revoked
	w.mu.Unlock()
	clk.advance(time.Hour)
	mustCall(t, w, a, "ping")
	if got := strings.Join(grantTypes(w), ","); got != "authorization_code,refresh_token,authorization_code" {
		t.Errorf("token requests = %s", got)
	}
	if w.authorizeCount() != 2 {
		t.Errorf("authorizations = %d, want a second sign-in", w.authorizeCount())
	}
}

func TestRefreshFailureHeadless(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	store := &MemoryStore{}
	mustCall(t, w, newAuth(t, w, &Options{now: clk.now, Store: store}), "ping")
	w.mu.Lock()
	clear(w.refreshes)
	w.mu.Unlock()
	clk.advance(time.Hour)
	headless, err := New(w.serverURL(), &Options{now: clk.now, Store: store, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	err = call(t, w, headless, "ping")
	if !isAuthErr(err, ErrInteractionRequired) {
		t.Fatalf("err = %v, want ErrInteractionRequired", err)
	}
	// The dead refresh token was dropped, not kept for another try.
	if rec, _ := store.Load(t.Context(), w.serverURL()); rec == nil || rec.Token != nil {
		t.Errorf("stored record after a rejected refresh = %v", rec)
	}
}

func TestHeadlessUsesStoredTokens(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	store := &MemoryStore{}
	mustCall(t, w, newAuth(t, w, &Options{now: clk.now, Store: store}), "ping")
	headless, err := New(w.serverURL(), &Options{now: clk.now, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	mustCall(t, w, headless, "ping") // the stored access token
	clk.advance(time.Hour)
	mustCall(t, w, headless, "ping") // refreshed without a user
	if w.authorizeCount() != 1 {
		t.Errorf("authorizations = %d, want 1", w.authorizeCount())
	}
}

func TestConcurrentCallsShareOneRefresh(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	a := newAuth(t, w, &Options{now: clk.now})
	mustCall(t, w, a, "ping")
	clk.advance(time.Hour)

	const n = 8
	gate := make(chan struct{})
	waiting := make(chan struct{}, n)
	w.mu.Lock()
	w.tokenGate = gate
	w.mu.Unlock()
	a.waitHook = func() { waiting <- struct{}{} }

	var wg sync.WaitGroup
	tokens := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, w.serverURL(), nil)
			if err := a.Authorize(context.Background(), req); err != nil {
				t.Errorf("Authorize: %v", err)
			}
			tokens[i] = bearerToken(req)
		}()
	}
	for range n - 1 { // everyone but the one refreshing is waiting for it
		<-waiting
	}
	close(gate)
	wg.Wait()
	if got := grantTypes(w); len(got) != 2 || got[1] != "refresh_token" {
		t.Errorf("token requests = %v, want exactly one refresh", got)
	}
	for i, tok := range tokens {
		if tok != "at-2" {
			t.Errorf("caller %d sent %q, want the refreshed at-2", i, tok)
		}
	}
}

func TestConcurrentChallengesShareOneSignIn(t *testing.T) {
	w := newWorld(t)
	ua := &approver{}
	a := newAuth(t, w, &Options{UserAgent: ua})
	const n = 6
	gate := make(chan struct{})
	waiting := make(chan struct{}, n)
	w.tokenGate = gate
	a.waitHook = func() { waiting <- struct{}{} }
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := call(t, w, a, "ping"); err != nil {
				t.Errorf("call: %v", err)
			}
		}()
	}
	for range n - 1 {
		<-waiting
	}
	close(gate)
	wg.Wait()
	if ua.count() != 1 || w.authorizeCount() != 1 {
		t.Errorf("sign-ins = %d, authorizations %d; want one shared by all", ua.count(), w.authorizeCount())
	}
}

func TestFailedFlightFailsItsFollowers(t *testing.T) {
	w := newWorld(t)
	ua := &refusingAgent{err: errors.New("browser crashed")}
	a := newAuth(t, w, &Options{UserAgent: ua})
	const n = 4
	entered := make(chan struct{}, n) // buffered: a second sign-in must show in the count, not hang
	release := make(chan struct{})
	waiting := make(chan struct{}, n)
	a.waitHook = func() { waiting <- struct{}{} }
	a.opts.UserAgent = gatedAgent{inner: ua, entered: entered, release: release}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = call(t, w, a, "ping")
		}()
	}
	<-entered
	for range n - 1 {
		<-waiting
	}
	close(release)
	wg.Wait()
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "browser crashed") {
			t.Errorf("caller %d: err = %v, want the flight's failure", i, err)
		}
	}
	if ua.count() != 1 {
		t.Errorf("sign-ins = %d, want 1: followers must not start their own", ua.count())
	}
}

// gatedAgent holds Open until release is closed, after telling entered.
type gatedAgent struct {
	inner   UserAgent
	entered chan struct{}
	release chan struct{}
}

func (g gatedAgent) Open(ctx context.Context) (Callback, error) {
	g.entered <- struct{}{}
	<-g.release
	return g.inner.Open(ctx)
}

func TestConcurrentCallsAfterAFailedRefreshShareOneSignIn(t *testing.T) {
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	ua := &approver{}
	a := newAuth(t, w, &Options{now: clk.now, UserAgent: ua})
	mustCall(t, w, a, "ping")
	w.mu.Lock()
	clear(w.refreshes) // the refresh will fail
	w.mu.Unlock()
	clk.advance(time.Hour)

	const n = 5
	gate := make(chan struct{})
	waiting := make(chan struct{}, 4*n)
	w.mu.Lock()
	w.tokenGate = gate
	w.mu.Unlock()
	a.waitHook = func() { waiting <- struct{}{} }
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := call(t, w, a, "ping"); err != nil {
				t.Errorf("call: %v", err)
			}
		}()
	}
	for range n - 1 { // all but the refreshing caller wait for the refresh
		<-waiting
	}
	close(gate)
	wg.Wait()
	if got := strings.Join(grantTypes(w), ","); got != "authorization_code,refresh_token,authorization_code" {
		t.Errorf("token requests = %s, want one failed refresh then one sign-in for everyone", got)
	}
	if ua.count() != 2 {
		t.Errorf("sign-ins = %d, want 2 (the first and one after the failed refresh)", ua.count())
	}
}
