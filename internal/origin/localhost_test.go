package origin

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// noDNS is a dialer whose resolver fails the test if it is asked for
// anything: a name that reaches it would have gone to DNS.
func noDNS(t *testing.T) *net.Dialer {
	return &net.Dialer{Resolver: &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		t.Errorf("the resolver was asked (a DNS query to %s)", address)
		return nil, errors.New("no DNS in this test")
	}}}
}

// "localhost" names connect to loopback without a lookup; other names go
// to the dialer as they are.
func TestPinLocalhost(t *testing.T) {
	var mu sync.Mutex
	var dialed []string
	refuse := func(ctx context.Context, network, address string) (net.Conn, error) {
		mu.Lock()
		dialed = append(dialed, network+" "+address)
		mu.Unlock()
		return nil, errors.New("refused")
	}
	dial := PinLocalhost(refuse)
	for _, tc := range []struct{ network, address, want string }{
		{"tcp", "localhost:80", "tcp 127.0.0.1:80,tcp [::1]:80"},
		{"tcp", "API.LocalHost.:8080", "tcp 127.0.0.1:8080,tcp [::1]:8080"},
		{"tcp4", "a.b.localhost:1", "tcp4 127.0.0.1:1"},
		{"tcp6", "localhost:2", "tcp6 [::1]:2"},
		{"tcp", "localhost.example.com:3", "tcp localhost.example.com:3"},
		{"tcp", "example.com:443", "tcp example.com:443"},
	} {
		dialed = nil
		if _, err := dial(context.Background(), tc.network, tc.address); err == nil {
			t.Fatalf("%s: no error from a refusing dialer", tc.address)
		}
		if got := strings.Join(dialed, ","); got != tc.want {
			t.Errorf("%s %s dialed %s, want %s", tc.network, tc.address, got, tc.want)
		}
	}
}

// Through a real HTTP transport whose resolver must not be asked, and a
// proxy that must not be used, http://app.localhost reaches a server on
// 127.0.0.1.
func TestPinLocalhostTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "here")
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	tr := &http.Transport{
		DialContext: noDNS(t).DialContext,
		Proxy: func(r *http.Request) (*url.URL, error) {
			t.Errorf("request to %s went to the proxy", r.URL.Host)
			return nil, errors.New("no proxy in this test")
		},
	}
	PinLocalhostTransport(tr)
	defer tr.CloseIdleConnections()
	for _, host := range []string{"localhost", "app.localhost", "deep.app.localhost."} {
		resp, err := (&http.Client{Transport: tr}).Get("http://" + net.JoinHostPort(host, port) + "/")
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "here" {
			t.Errorf("%s: body %q", host, b)
		}
	}
}
