package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, SessionKeySize) }

// warnings collects what a handler's SessionWarn receives.
type warnings struct {
	mu   sync.Mutex
	errs []error
}

func (w *warnings) add(err error) {
	w.mu.Lock()
	w.errs = append(w.errs, err)
	w.mu.Unlock()
}

func (w *warnings) all() []error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]error(nil), w.errs...)
}

// replica is one server with its own state, as another process would be.
func replica(t *testing.T, w *warnings, keys ...[]byte) *HTTPServer {
	opts := &HTTPOptions{SessionKeys: keys}
	if w != nil {
		opts.SessionWarn = w.add
	}
	return NewHTTPServer(t, NewDefault(nil), opts)
}

func echoText(t *testing.T, c *httpClient, msg string) (int, string) {
	t.Helper()
	resp, id := c.post("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": msg}})
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, readAll(resp)
	}
	r := responseTo(t, messages(t, allEvents(t, resp)), id)
	if r.Error != nil {
		t.Fatalf("echo: %v", r.Error)
	}
	return resp.StatusCode, decodeToolResult(t, r.Result).text()
}

func TestSealedSessionMovesToAnotherReplica(t *testing.T) {
	key := testKey(1)
	a, b := replica(t, nil, key), replica(t, nil, key)
	c := newHTTPClient(t, a)
	c.initialize(LatestProtocolVersion)
	if !strings.HasPrefix(c.session, sealedPrefix) {
		t.Fatalf("session id %q is not sealed", c.session)
	}
	if strings.Contains(c.session, "http-test") {
		t.Fatal("the session id shows the client's info in the clear")
	}
	if ids := a.Streamable.SessionIDs(); len(ids) != 1 || ids[0] != c.session {
		t.Fatalf("replica a holds %v, want the sealed id", ids)
	}

	c.url = b.URL // the replica that started the session is not asked again
	if status, text := echoText(t, c, "moved"); status != http.StatusOK || text != "moved" {
		t.Fatalf("echo on replica b: %d %q", status, text)
	}
	sessions := b.Streamable.srv.Sessions()
	if len(sessions) != 1 {
		t.Fatalf("replica b has %d sessions", len(sessions))
	}
	ss := sessions[0]
	if ss.ID() != c.session || ss.ProtocolVersion() != LatestProtocolVersion || ss.ClientInfo().Name != "http-test" {
		t.Errorf("reopened session: id ok %v, version %q, client %+v", ss.ID() == c.session, ss.ProtocolVersion(), ss.ClientInfo())
	}
	var caps map[string]json.RawMessage
	if err := json.Unmarshal(ss.ClientCapabilities(), &caps); err != nil || caps["sampling"] == nil {
		t.Errorf("reopened client capabilities %s", ss.ClientCapabilities())
	}
	select {
	case <-ss.Initialized():
	default:
		t.Error("the reopened session waits for an initialized the client sent elsewhere")
	}
	// Requests after the first find the reopened session.
	if status, text := echoText(t, c, "again"); status != http.StatusOK || text != "again" {
		t.Fatalf("second echo on replica b: %d %q", status, text)
	}
	if n := len(b.Streamable.srv.Sessions()); n != 1 {
		t.Errorf("replica b has %d sessions after two requests", n)
	}
}

func TestSealedSessionGETStreamReconnectsElsewhere(t *testing.T) {
	key := testKey(2)
	a, b := replica(t, nil, key), replica(t, nil, key)
	c := newHTTPClient(t, a)
	c.initialize(LatestProtocolVersion)
	get := c.do(http.MethodGet, "", nil)
	primed := openEvents(t, get)
	first, err := primed.next()
	if err != nil || !first.HasID {
		t.Fatalf("priming event on a: %+v %v", first, err)
	}
	get.Body.Close()

	c.url = b.URL
	resumed := c.do(http.MethodGet, "", map[string]string{"Last-Event-ID": first.ID})
	if resumed.StatusCode != http.StatusOK {
		t.Fatalf("GET on b with a's event id: %d %s", resumed.StatusCode, readAll(resumed))
	}
	resumed.Body.Close()

	// A reply stream's events were the other replica's: say so.
	resp, _ := c.post("ping", nil)
	evs := allEvents(t, resp)
	if len(evs) == 0 || !evs[0].HasID {
		t.Fatalf("ping events on b %+v", evs)
	}
	c.url = a.URL
	other := c.do(http.MethodGet, "", map[string]string{"Last-Event-ID": evs[0].ID})
	if body := readAll(other); other.StatusCode != http.StatusBadRequest || !strings.Contains(body, "another replica") {
		t.Errorf("resuming b's reply stream on a: %d %s", other.StatusCode, body)
	}
}

func TestSealedSessionRefusesTamperedAndForeignIDs(t *testing.T) {
	var w warnings
	a := replica(t, nil, testKey(3))
	b := replica(t, &w, testKey(3))
	c := newHTTPClient(t, a)
	c.initialize(LatestProtocolVersion)
	good := c.session

	foreign := newHTTPClient(t, replica(t, nil, testKey(4)))
	foreign.initialize(LatestProtocolVersion)

	flip := []byte(good)
	flip[len(flip)-3] ^= 'A' ^ 'B'
	if flip[len(flip)-3] == good[len(good)-3] {
		t.Fatal("no change")
	}
	for name, id := range map[string]string{
		"tampered":   string(flip),
		"foreign":    foreign.session,
		"plain":      "session-1",
		"truncated":  good[:len(good)/2],
		"not base64": sealedPrefix + "!!!!",
	} {
		t.Run(name, func(t *testing.T) {
			before := len(w.all())
			c2 := newHTTPClient(t, b)
			c2.session, c2.version = id, LatestProtocolVersion
			resp, _ := c2.post("tools/list", nil)
			if resp.StatusCode != http.StatusNotFound {
				t.Fatalf("status %d, want 404: %s", resp.StatusCode, readAll(resp))
			}
			errs := w.all()
			if len(errs) != before+1 {
				t.Fatalf("%d warnings, want one more than %d", len(errs), before)
			}
			got := errs[len(errs)-1]
			if !errors.Is(got, errSealedID) {
				t.Errorf("warning %v", got)
			}
			if len(id) > 12 && strings.Contains(got.Error(), id[len(sealedPrefix):len(sealedPrefix)+8]) {
				t.Errorf("the warning quotes the id: %v", got)
			}
		})
	}
	if n := len(b.Streamable.srv.Sessions()); n != 0 {
		t.Errorf("refused ids left %d sessions", n)
	}
}

func TestSealedSessionKeyRotation(t *testing.T) {
	oldKey, newKey := testKey(5), testKey(6)
	before := replica(t, nil, oldKey)
	during := replica(t, nil, newKey, oldKey) // seals with the new, opens both
	after := replica(t, nil, newKey)

	c := newHTTPClient(t, before)
	c.initialize(LatestProtocolVersion)
	c.url = during.URL
	if status, _ := echoText(t, c, "rotating"); status != http.StatusOK {
		t.Fatalf("a replica that has the old key as second key: %d", status)
	}
	c.url = after.URL
	if status, _ := echoText(t, c, "retired"); status != http.StatusNotFound {
		t.Fatalf("a replica without the old key: %d, want 404", status)
	}

	fresh := newHTTPClient(t, during)
	fresh.initialize(LatestProtocolVersion)
	fresh.url = after.URL
	if status, text := echoText(t, fresh, "new"); status != http.StatusOK || text != "new" {
		t.Fatalf("an id sealed under the new key: %d %q", status, text)
	}
}

func TestSealedSessionDeleteIsLocal(t *testing.T) {
	key := testKey(7)
	a, b := replica(t, nil, key), replica(t, nil, key)
	c := newHTTPClient(t, a)
	c.initialize(LatestProtocolVersion)
	if resp := c.do(http.MethodDelete, "", nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}
	if status, _ := echoText(t, c, "after delete"); status != http.StatusNotFound {
		t.Errorf("the replica that ended the session reopened it: %d", status)
	}
	// What docs/serve.md says: another replica still opens the id.
	c.url = b.URL
	if status, _ := echoText(t, c, "elsewhere"); status != http.StatusOK {
		t.Errorf("another replica: %d", status)
	}
}

func TestSealedSessionBadKeyAnswers500(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), &HTTPOptions{SessionKeys: [][]byte{[]byte("short")}})
	c := newHTTPClient(t, srv)
	resp, _ := c.post("initialize", map[string]any{"protocolVersion": LatestProtocolVersion})
	if body := readAll(resp); resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "session key 1 is 5 bytes") {
		t.Errorf("status %d: %s", resp.StatusCode, body)
	}
}

// TestStatelessRequestsNeedNoSharedState sends 2026-07-28 requests to
// two replicas that share nothing, not even a key: each answers alone.
func TestStatelessRequestsNeedNoSharedState(t *testing.T) {
	replicas := []*HTTPServer{NewHTTPServer(t, NewDefault(nil), nil), NewHTTPServer(t, NewDefault(nil), nil)}
	for i := range 4 {
		c := newHTTPClient(t, replicas[i%2])
		resp, id := c.modernPost("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}}, nil)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") != "" {
			t.Fatalf("replica %d: status %d, session %q", i%2, resp.StatusCode, resp.Header.Get("Mcp-Session-Id"))
		}
		r := modernResponse(t, resp, id)
		if r.Error != nil || decodeToolResult(t, r.Result).text() != "hi" {
			t.Fatalf("replica %d: %+v", i%2, r)
		}
	}
	for i, s := range replicas {
		if n := len(s.Streamable.SessionIDs()); n != 0 {
			t.Errorf("replica %d kept %d sessions for stateless requests", i, n)
		}
	}
}

var refusalReason = regexp.MustCompile(`^\((\d+ bytes, longer than \d+|no "v1\." prefix|not base64url|too short|its sealed content is not a session|authentication failed: tampered, or sealed under another key)\)$`)

// FuzzSessionIDOpen feeds arbitrary ids to the decoder: it must not
// panic, must not quote what it refuses, and opens only what was sealed.
func FuzzSessionIDOpen(f *testing.F) {
	s, err := newSessionSealer([][]byte{testKey(8), testKey(9)})
	if err != nil {
		f.Fatal(err)
	}
	good, err := s.seal(sealedSession{Version: LatestProtocolVersion, ClientInfo: Implementation{Name: "fuzz"}, ClientCaps: json.RawMessage(`{}`), Issued: 1})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{good, good[:len(good)-1], good + "A", sealedPrefix, sealedPrefix + "AAAA", "session-1", "", "v1.=", strings.Repeat("A", maxSealedIDLen+1)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, id string) {
		st, err := s.open(id)
		if err == nil {
			// Seeds run in several processes, each with its own good id:
			// what opens must be one of them, spelt as sealed.
			raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(id, sealedPrefix))
			if st.ClientInfo.Name != "fuzz" || id != sealedPrefix+base64.RawURLEncoding.EncodeToString(raw) {
				t.Fatalf("opened %q to %+v", id, st)
			}
			return
		}
		if !errors.Is(err, errSealedID) {
			t.Fatalf("error %v does not say what was refused", err)
		}
		// Every refusal is one of a few fixed texts: none can carry the id.
		if reason := strings.TrimPrefix(err.Error(), errSealedID.Error()+" "); !refusalReason.MatchString(reason) {
			t.Fatalf("error %v is not one of the fixed refusals", err)
		}
	})
}
