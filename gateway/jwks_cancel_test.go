package gateway

import (
	"context"
	"net/http"
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
