package inspect

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// annotateWindow is how many of the newest entries an HTTP exchange looks
// through for the message it carried: the message was recorded just
// before its POST, so it is among the last few.
const annotateWindow = 1000

// WireHTTP is the HTTP exchange that carried a message the client sent:
// the status of the server's answer and the protocol's headers both ways.
// Only Mcp-* headers (and the answer's Content-Type) are kept: never
// Authorization, cookies or configured headers (not even one named Mcp-*).
type WireHTTP struct {
	Status      int               `json:"status,omitempty"` // 0: no answer
	ContentType string            `json:"contentType,omitempty"`
	Request     map[string]string `json:"request,omitempty"`
	Response    map[string]string `json:"response,omitempty"`
	Error       string            `json:"error,omitempty"`
}

// TapHTTP makes t's HTTP requests (Streamable HTTP, legacy SSE, or
// either when chosen automatically) report their exchanges to the
// timeline, each beside the message it carried, for server name. Other
// transports, and those given their own HTTPClient, are returned as they
// are. It changes t's configuration, so call it before connecting.
// Nothing changes on the wire: the requests go through a client of their
// own with the same pool settings, the transport's Authorizer still
// applied.
func (w *Wire) TapHTTP(t transport.Transport, name string) transport.Transport {
	tap := func(hc **http.Client, configured http.Header) {
		if *hc != nil {
			return
		}
		next := http.DefaultTransport
		if d, ok := next.(*http.Transport); ok {
			next = d.Clone()
		}
		*hc = &http.Client{Transport: &httpTap{next: next, wire: w, server: name, configured: configured}}
	}
	switch t := t.(type) {
	case *transport.StreamableHTTP:
		tap(&t.HTTPClient, t.Headers)
	case *transport.SSE:
		tap(&t.HTTPClient, t.Headers)
	case *transport.Auto:
		tap(&t.HTTPClient, t.Headers)
	}
	return t
}

// httpTap is the round tripper that reports each exchange: a POST's
// beside the message it carried, a GET or DELETE as an entry of its own.
type httpTap struct {
	next   http.RoundTripper
	wire   *Wire
	server string
	// configured are the user's own headers (secrets, whatever their
	// names): left out of what the page shows.
	configured http.Header
}

func (h *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	var msg envelope
	carried := false
	if req.Method == http.MethodPost && req.GetBody != nil {
		// A copy of the body, which the transport keeps for resending: the
		// request itself is not touched.
		if body, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(body, maxBody))
			body.Close()
			carried = json.Unmarshal(b, &msg) == nil && (msg.Method != "" || len(msg.ID) > 0)
		}
	}
	resp, err := h.next.RoundTrip(req)
	purpose := exchangePurpose(req.Method)
	if !carried && purpose == "" {
		return resp, err
	}
	x := &WireHTTP{Request: mcpHeaders(req.Header, h.configured)}
	if err != nil {
		x.Error = "no answer (the request failed before the server responded)"
	} else {
		x.Status, x.ContentType, x.Response = resp.StatusCode, resp.Header.Get("Content-Type"), mcpHeaders(resp.Header, nil)
	}
	if carried {
		h.wire.annotate(h.server, msg, x)
	} else {
		h.wire.addExchange(h.server, req.Method, purpose, x)
	}
	return resp, err
}

// exchangePurpose names the requests that carry no message of the
// client's: the GET that opens the stream the server speaks on unasked
// (Streamable HTTP's listener, legacy SSE's event stream) and the DELETE
// that ends a session. "" for the others.
func exchangePurpose(method string) string {
	switch method {
	case http.MethodGet:
		return "listener stream"
	case http.MethodDelete:
		return "session end"
	}
	return ""
}

// addExchange puts an HTTP exchange that carried no JSON-RPC message on
// the timeline, as an entry of kind "http" (say "GET (listener stream)").
// Its message is only a description (never the URL, which may hold a
// secret), and it has no recording line, so an export leaves it out: a
// recording replays messages, not requests.
func (w *Wire) addExchange(server, method, purpose string, x *WireHTTP) {
	desc, _ := json.Marshal(map[string]string{"http": method, "purpose": purpose})
	e := &WireEntry{Time: time.Now(), Server: server, Direction: "send", Kind: "http",
		Method: method + " (" + purpose + ")", Message: desc, HTTP: x}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.insert(e)
}

// mcpHeaders are the Mcp-* headers of hdr, by their canonical names,
// but for those named in except.
func mcpHeaders(hdr, except http.Header) map[string]string {
	var out map[string]string
	for k, v := range hdr {
		if strings.HasPrefix(strings.ToLower(k), "mcp-") && len(v) > 0 && !hasHeader(except, k) {
			if out == nil {
				out = map[string]string{}
			}
			out[http.CanonicalHeaderKey(k)] = strings.Join(v, ", ")
		}
	}
	return out
}

// hasHeader reports whether hdr names k, in any case (a configured map
// may hold names as the user spelled them).
func hasHeader(hdr http.Header, k string) bool {
	for name := range hdr {
		if strings.EqualFold(name, k) {
			return true
		}
	}
	return false
}

// annotate sets x on the newest message server sent that matches msg
// (its id, or for a notification its method) and has no exchange yet,
// and tells the pages. The entry is replaced, not changed, as snapshots
// of the timeline share the old one.
func (w *Wire) annotate(server string, msg envelope, x *WireHTTP) {
	w.mu.Lock()
	defer w.mu.Unlock()
	id := msg.ID
	if len(id) == 0 || string(id) == "null" {
		id = nil
	}
	for i := len(w.entries) - 1; i >= 0 && i >= len(w.entries)-annotateWindow; i-- {
		e := w.entries[i]
		if e.Server != server || e.Direction != "send" || e.HTTP != nil {
			continue
		}
		// A request or notification by its method; an answer (to the
		// server's request) by its id alone, as its entry names the method
		// it answers.
		if answer := e.Kind == "result" || e.Kind == "error"; answer != (msg.Method == "") || (!answer && e.Method != msg.Method) {
			continue
		}
		if (id == nil) != (e.ID == nil) || (id != nil && !bytes.Equal(compactJSON(id), compactJSON(e.ID))) {
			continue
		}
		c := *e
		c.HTTP = x
		w.entries = slices.Replace(w.entries, i, i+1, &c)
		if w.notify != nil {
			w.notify(&c)
		}
		return
	}
}

// compactJSON is raw without insignificant spaces (raw when invalid).
func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
