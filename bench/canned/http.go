package canned

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// Handler serves Streamable HTTP on one endpoint: a POST of a request is
// answered with one JSON body, or with an SSE stream of one event when sse
// is set; other messages get 202. GET (the optional listener) is refused
// with 405, as the protocol allows; DELETE ends nothing and answers 200.
func Handler(sse bool) http.Handler {
	h := &handler{rsp: NewResponder(), sse: sse}
	return h
}

type handler struct {
	rsp      *Responder
	sse      bool
	sessions atomic.Int64
	bufs     sync.Pool // of *bytes.Buffer
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		w.WriteHeader(http.StatusOK)
		return
	default:
		w.Header().Set("Allow", "POST, DELETE")
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
	if rep.Initialize {
		hdr.Set("Mcp-Session-Id", "canned-"+strconv.FormatInt(h.sessions.Add(1), 10))
	}
	if h.sse {
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
	w.WriteHeader(http.StatusOK)
	rep.writeParts(w)
}
