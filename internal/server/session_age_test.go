package server

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// A sealed id older than SessionMaxAge is refused everywhere: by the
// replica that holds its session and by one that would reopen it.
func TestSealedSessionMaxAge(t *testing.T) {
	key := testKey(9)
	var wa, wb warnings
	opts := func(w *warnings) *HTTPOptions {
		return &HTTPOptions{SessionKeys: [][]byte{key}, SessionMaxAge: time.Hour, SessionWarn: w.add}
	}
	a := NewHTTPServer(t, NewDefault(nil), opts(&wa))
	b := NewHTTPServer(t, NewDefault(nil), opts(&wb))

	c := newHTTPClient(t, a)
	c.initialize(LatestProtocolVersion)
	if status, text := echoText(t, c, "young"); status != http.StatusOK || text != "young" {
		t.Fatalf("a fresh session: %d %q", status, text)
	}

	// The session held here grows old.
	a.Streamable.mu.Lock()
	held := a.Streamable.sessions[c.session]
	a.Streamable.mu.Unlock()
	if held == nil || held.issued.IsZero() {
		t.Fatal("the sealed session does not know when it started")
	}
	held.issued = held.issued.Add(-2 * time.Hour)
	if status, _ := echoText(t, c, "old"); status != http.StatusNotFound {
		t.Fatalf("an id two hours old on the replica holding it: %d, want 404", status)
	}
	if ids := a.Streamable.SessionIDs(); len(ids) != 0 {
		t.Errorf("the outlived session is still held: %d sessions", len(ids))
	}
	if errs := wa.all(); len(errs) != 1 || !errors.Is(errs[0], errSessionTooOld) {
		t.Errorf("warnings %v, want one saying the id is too old", errs)
	}

	// Another replica would reopen ids by what they carry.
	sealer, err := newSessionSealer([][]byte{key})
	if err != nil {
		t.Fatal(err)
	}
	idAged := func(age time.Duration) string {
		id, err := sealer.seal(sealedSession{Version: LatestProtocolVersion, ClientInfo: Implementation{Name: "aged", Version: "1"}, Issued: time.Now().Add(-age).Unix()})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, tc := range []struct {
		age    time.Duration
		status int
	}{{30 * time.Minute, http.StatusOK}, {2 * time.Hour, http.StatusNotFound}} {
		before := len(wb.all())
		c2 := newHTTPClient(t, b)
		c2.session, c2.version = idAged(tc.age), LatestProtocolVersion
		if status, _ := echoText(t, c2, "reopened"); status != tc.status {
			t.Errorf("an id %s old on another replica: %d, want %d", tc.age, status, tc.status)
		}
		refused := len(wb.all()) > before
		if refused != (tc.status == http.StatusNotFound) {
			t.Errorf("an id %s old: warned %v", tc.age, refused)
		}
	}
	if n := len(b.Streamable.srv.Sessions()); n != 1 {
		t.Errorf("replica b holds %d sessions, want the young one only", n)
	}
}
