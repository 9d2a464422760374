package auth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// browser follows a URL like a browser whose user approves at once, and
// keeps the last page it saw.
type browser struct {
	page   string
	status int
}

func (b *browser) open(ctx context.Context, u string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	b.page, b.status = string(body), resp.StatusCode
	return nil
}

func TestLoopbackSignIn(t *testing.T) {
	w := newWorld(t)
	br := &browser{}
	var out bytes.Buffer
	ua := &Loopback{OpenURL: br.open, Out: &out}
	a := newAuth(t, w, &Options{UserAgent: ua})
	mustCall(t, w, a, "ping")
	redirect := w.lastAuthorize(t).Get("redirect_uri")
	if !strings.HasPrefix(redirect, "http://127.0.0.1:") || !strings.HasSuffix(redirect, "/callback") {
		t.Errorf("redirect_uri = %q", redirect)
	}
	if br.status != 200 || !strings.Contains(br.page, "Authorization complete") {
		t.Errorf("the browser saw %d %q", br.status, br.page)
	}
	if !strings.Contains(out.String(), w.issuer()+"/authorize?") {
		t.Errorf("the URL was not shown to the user: %q", out.String())
	}
}

func TestLoopbackWithoutBrowserPrintsTheURL(t *testing.T) {
	var out bytes.Buffer
	ua := &Loopback{NoBrowser: true, Out: &out}
	cb, err := ua.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := cb.Await(ctx, "https://as.example/authorize?x=1")
		done <- err
	}()
	// The user visits the redirect URI by hand; first a wrong path and a
	// request without a code, which are refused, then the real answer.
	get := func(u string) int {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	base := strings.TrimSuffix(cb.RedirectURI(), "/callback")
	if s := get(base + "/favicon.ico"); s != 404 {
		t.Errorf("other path: %d", s)
	}
	if s := get(cb.RedirectURI()); s != 400 {
		t.Errorf("no code: %d", s)
	}
	if s := get(cb.RedirectURI() + "?error=access_denied&state=s"); s != 200 {
		t.Errorf("error answer: %d", s)
	}
	err = <-done
	cancel()
	if err != nil {
		t.Fatalf("Await = %v", err)
	}
	if !strings.Contains(out.String(), "https://as.example/authorize?x=1") || !strings.Contains(out.String(), "open this URL") {
		t.Errorf("instructions = %q", out.String())
	}
}

func TestLoopbackCancelled(t *testing.T) {
	ua := &Loopback{NoBrowser: true, Out: io.Discard}
	cb, err := ua.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = cb.Await(ctx, "https://as.example/authorize")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Await = %v, want context.Canceled", err)
	}
	cb.Close()
	if _, err := http.Get(cb.RedirectURI()); err == nil {
		t.Error("still listening after Close")
	}
}

func TestLoopbackFixedPortAndCloseWithoutAwait(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ua := &Loopback{Port: port, Path: "cb"}
	cb, err := ua.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := "http://127.0.0.1:" + strconv.Itoa(port) + "/cb"; cb.RedirectURI() != want {
		t.Errorf("RedirectURI = %q, want %q", cb.RedirectURI(), want)
	}
	// The port is taken while the callback is open.
	if _, err := ua.Open(t.Context()); err == nil || !strings.Contains(err.Error(), strconv.Itoa(port)) {
		t.Errorf("second Open on the same port = %v", err)
	}
	cb.Close()
	cb2, err := ua.Open(t.Context())
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	cb2.Close()
	if _, err := (&Loopback{Port: 70000}).Open(t.Context()); err == nil {
		t.Error("port 70000 accepted")
	}
}

// A second browser sign-in with the same authorization server listens on
// the port its registered redirect URI names, so the client registered the
// first time serves again: a new port would need a new registration, and
// an authorization server would collect one client per sign-in. When that
// port is taken, a new one (and a new registration) is the way out.
func TestLoopbackSignInReusesItsRegistration(t *testing.T) {
	w := newWorld(t)
	store := &MemoryStore{}
	signIn := func() string {
		t.Helper()
		br := &browser{}
		ua := &Loopback{OpenURL: br.open, Out: io.Discard}
		rec, _ := store.Load(t.Context(), w.serverURL())
		if rec != nil {
			rec.Token = nil // signed out: the next call signs in again
			store.Save(t.Context(), rec)
		}
		mustCall(t, w, newAuth(t, w, &Options{UserAgent: ua, Store: store}), "ping")
		return w.lastAuthorize(t).Get("redirect_uri")
	}
	first := signIn()
	if second := signIn(); second != first || len(w.regBodies) != 1 {
		t.Fatalf("second sign-in: redirect %q (first %q), %d registrations; want the first's redirect and registration", second, first, len(w.regBodies))
	}
	u, _ := url.Parse(first)
	taken, err := net.Listen("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	if third := signIn(); third == first || len(w.regBodies) != 2 {
		t.Errorf("with the port taken: redirect %q, %d registrations; want a new port and a new registration", third, len(w.regBodies))
	}
}
