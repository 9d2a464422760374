package gateway

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
)

// A fetch of the key set outlives the request that started it. Before, it
// ran under that request's context: anyone, without a valid token, could
// send a made-up token and hang up at once, and the cancelled fetch
// counted as the issuer failing, so every host's token was refused until
// the 30-second floor passed, again and again.
func TestOAuthKeyFetchOutlivesTheRequestThatStartedIt(t *testing.T) {
	is := newTestIssuer(t)
	k := newECKey(t, "k")
	is.publish(k)
	const aud = "mcpwire"
	check := newOAuthCheck(&OAuthOptions{Issuer: is.url, Audience: aud}, http.NotFoundHandler())
	hungUp, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = check.verify(hungUp, newECKey(t, "made-up").sign(t, is.claims(aud, time.Now())))
	if _, err := check.verify(context.Background(), k.sign(t, is.claims(aud, time.Now()))); err != nil {
		t.Fatalf("a valid token after someone hung up during the key fetch: %v", err)
	}
}

// A token under a key already held is checked while the key set is being
// fetched again. Before, the fetch held the lock that every check takes:
// anyone, with a made-up kid once per floor, could stall every host's
// request for as long as the issuer took to answer (up to the fetch's
// timeout).
func TestOAuthKnownKeyDoesNotWaitForAFetch(t *testing.T) {
	is := newTestIssuer(t)
	k := newECKey(t, "k")
	is.publish(k)
	const aud = "mcpwire"
	check := newOAuthCheck(&OAuthOptions{Issuer: is.url, Audience: aud}, http.NotFoundHandler())
	clock := time.Now()
	var clockMu sync.Mutex
	check.keys.now = func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return clock }
	verify := func(key *testKey) error {
		_, err := check.verify(context.Background(), key.sign(t, is.claims(aud, time.Now())))
		return err
	}
	if err := verify(k); err != nil {
		t.Fatal(err)
	}
	clockMu.Lock()
	clock = clock.Add(jwksRefetchFloor)
	clockMu.Unlock()
	holding, release := is.holdFetches()
	defer release()
	stranger := make(chan error, 1)
	go func() { stranger <- verify(newECKey(t, "made-up")) }()
	<-holding // the made-up kid's fetch is at the issuer
	known := make(chan error, 1)
	go func() { known <- verify(k) }()
	select {
	case err := <-known:
		if err != nil {
			t.Errorf("a token under the held key during a fetch: %v", err)
		}
	case <-time.After(10 * time.Second): // a bound on the failure only
		t.Error("a token under the held key waited for the fetch")
		release()
		<-known
	}
	release()
	if err := <-stranger; err == nil {
		t.Error("a made-up kid passed")
	}
}
