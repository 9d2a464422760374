package canned

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// Handler serves Streamable HTTP on one endpoint with rsp: a POST of a
// request is answered with one JSON body, or with an SSE stream of one
// event when sse is set; other messages get 202. GET (the optional
// listener) is refused with 405, as the protocol allows; DELETE ends
// nothing and answers 200.
//
// A modern responder serves the stateless era's rules instead: no
// session id, DELETE refused with 405 too, and every POST of a request
// must carry MCP-Protocol-Version equal to its _meta version, Mcp-Method
// equal to its method and, for tools/call, Mcp-Name equal to the tool's
// name, else 400 with -32020 naming the header. -32020 and -32022 are 400
// replies, an unknown method 404.
func Handler(rsp *Responder, sse bool) http.Handler {
	return &handler{rsp: rsp, sse: sse}
}

type handler struct {
	rsp      *Responder
	sse      bool
	sessions atomic.Int64
	bufs     sync.Pool // of *bytes.Buffer
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost:
	case r.Method == http.MethodDelete && !h.rsp.modern:
		w.WriteHeader(http.StatusOK)
		return
	default:
		allow := "POST, DELETE"
		if h.rsp.modern {
			allow = "POST"
		}
		w.Header().Set("Allow", allow)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	buf, _ := h.bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		if buf.Cap() <= 1<<20 {
			buf.Reset()
			h.bufs.Put(buf)
		}
	}()
	buf.Reset()
	if _, err := buf.ReadFrom(r.Body); err != nil {
		http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	rep := h.rsp.Answer(buf.Bytes())
	if rep.NoReply {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	hdr := w.Header()
	status := http.StatusOK
	if h.rsp.modern {
		if e := checkHeaders(r.Header, &rep); e != nil {
			rep.Result, rep.Error, rep.code = nil, e, codeHeaderMismatch
		}
		switch rep.code {
		case codeHeaderMismatch, codeUnsupportedVersion:
			status = http.StatusBadRequest
		case -32601:
			status = http.StatusNotFound
		}
	}
	if rep.Initialize {
		hdr.Set("Mcp-Session-Id", "canned-"+strconv.FormatInt(h.sessions.Add(1), 10))
	}
	if h.sse && status == http.StatusOK {
		hdr.Set("Content-Type", "text/event-stream")
		hdr.Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("event: message\ndata: "))
		rep.writeParts(w)
		w.Write([]byte("\n\n"))
		return
	}
	hdr.Set("Content-Type", "application/json")
	hdr.Set("Content-Length", strconv.Itoa(rep.frameLen()))
	w.WriteHeader(status)
	rep.writeParts(w)
}

// checkHeaders checks the headers the stateless era requires on the POST
// of a request against its body; nil when they match.
func checkHeaders(hdr http.Header, rep *Reply) []byte {
	check := func(name, want string) []byte {
		got := hdr.Values(name)
		switch {
		case len(got) == 0:
			return errorObject(codeHeaderMismatch, "Missing "+name+" header")
		case got[0] != want:
			return errorObject(codeHeaderMismatch, name+" header value "+strconv.Quote(got[0])+" does not match body value "+strconv.Quote(want))
		}
		return nil
	}
	if rep.code == codeUnsupportedVersion || rep.method == "initialize" {
		// The version itself is refused; the headers cannot matter.
		return nil
	}
	if e := check("Mcp-Protocol-Version", rep.version); e != nil {
		return e
	}
	if e := check("Mcp-Method", rep.method); e != nil {
		return e
	}
	if rep.method == "tools/call" {
		return check("Mcp-Name", rep.name)
	}
	return nil
}
