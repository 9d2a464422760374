package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// sseEvent is one event of a stream's log. Events are kept until the
// session ends (a reply stream's, until keepEnded later replies are in),
// so that a client resuming with Last-Event-ID gets the events of that
// stream it missed.
type sseEvent struct {
	id      string // "<stream>-<index>", or "" without event ids
	data    []byte // nil for a priming event
	priming bool
}

// replyStream is the server side of one SSE stream: the reply to one
// POSTed request, or the session's standalone stream (number 0) that GET
// listens to.
type replyStream struct {
	num     int
	events  []sseEvent
	final   bool // the reply's response is in events: end after it
	changed chan struct{}
	// attached: a connection is writing this stream now.
	attached bool
	// delivered is how far the stream was written; a new GET without
	// Last-Event-ID continues the standalone stream from there.
	delivered int
	// base is how many events were dropped from the front of events (see
	// trimLocked): positions and event ids count from the stream's start,
	// events[0] is event base.
	base int
	// unsentSize is the bytes of the events not yet written (from
	// delivered on).
	unsentSize int
	// json: the POST waits for its responses to send as application/json.
	json     bool
	response chan *jsonrpc.Response
	// pending counts the responses the reply still waits for: one, or a
	// batch's requests (http_batch.go); the reply ends at zero.
	pending int
	cut     bool // cut the connection in the middle of an event
}

// httpOut routes a session's messages over Streamable HTTP: whatever
// relates to a POSTed request goes on that POST's reply stream until its
// response has been sent; everything else goes on the standalone stream.
type httpOut struct {
	h  *HTTPHandler
	ss *Session

	mu         sync.Mutex
	streams    map[int]*replyStream
	byRequest  map[jsonrpc.ID]*replyStream
	standalone *replyStream
	nextStream int
	// ended are the reply streams whose response is in, oldest first:
	// kept for a client that resumes one, keepEnded of them at the most.
	ended     []int
	crashed   chan struct{}
	crashOnce sync.Once
	// tag starts every event id when sessions are sealed: it tells this
	// replica's life of the session from another's, whose event numbers
	// mean other events.
	tag string
	// issued is when a sealed session started (zero when not sealed),
	// which HTTPOptions.SessionMaxAge bounds.
	issued time.Time

	// Idle expiry (session_idle.go): requests being served now, when the
	// last one ended (Unix nanoseconds), the timer, and the key o is kept
	// under in h.sessions (set under h.mu, as idle is).
	active   atomic.Int32
	lastUsed atomic.Int64
	idle     *time.Timer
	key      string
}

func newHTTPOut(h *HTTPHandler) *httpOut {
	o := &httpOut{
		h:         h,
		streams:   map[int]*replyStream{},
		byRequest: map[jsonrpc.ID]*replyStream{},
		crashed:   make(chan struct{}),
	}
	if h.sealer != nil {
		o.tag = rand.Text()[:8] + "."
	}
	o.standalone = &replyStream{num: 0, changed: make(chan struct{})}
	o.streams[0] = o.standalone
	o.nextStream = 1
	return o
}

// keepEnded bounds the answered reply streams a session keeps for
// resumption. Each was kept until the session ended, so a long session
// (a host's behind the gateway) grew with every call; a client resumes
// the stream of a call in flight or just answered, not one of calls ago.
const keepEnded = 64

// What a stream keeps: the standalone stream for as long as the session
// lives, a reply's while its call runs and among the last keepEnded. Every
// event was kept, so a long session, or one a host left without DELETE,
// grew with every notification sent to it, and a long call with every
// progress notification. Events written already are kept for a client
// that resumes: the newest keepWritten of them (to twice that, trimmed
// now and then). Events not yet written wait for their reader, who is
// usually just behind: a burst outruns the writer by thousands of events
// (a bound of 256 on them lost events that the host was reading). They
// are bounded, the oldest going first, only for a host that does not read
// for long, or never opens the stream; a reply's response, its last
// event, is never dropped.
const (
	keepWritten     = 256
	maxUnsentEvents = 16 << 10
	maxUnsentBytes  = 16 << 20
)

// endedLocked notes that st has its response, forgetting the oldest
// answered stream past keepEnded: resuming it then gets 400 like an
// unknown event id.
func (o *httpOut) endedLocked(st *replyStream) {
	o.ended = append(o.ended, st.num)
	if len(o.ended) > keepEnded {
		delete(o.streams, o.ended[0])
		o.ended = append(o.ended[:0], o.ended[1:]...)
	}
}

// openReply registers the reply stream of a POSTed request before the
// session sees the request, so that nothing it sends can miss the stream.
func (o *httpOut) openReply(id jsonrpc.ID, asJSON, cut bool) *replyStream {
	o.mu.Lock()
	defer o.mu.Unlock()
	st := o.newReplyLocked(1, asJSON)
	st.cut = cut
	o.byRequest[id] = st
	return st
}

// newReplyLocked registers a reply stream waiting for n responses.
func (o *httpOut) newReplyLocked(n int, asJSON bool) *replyStream {
	st := &replyStream{num: o.nextStream, changed: make(chan struct{}), json: asJSON, pending: n}
	if asJSON {
		st.response = make(chan *jsonrpc.Response, n)
	}
	o.nextStream++
	o.streams[st.num] = st
	return st
}

// appendLocked adds an event to st and wakes its writer.
func (o *httpOut) appendLocked(st *replyStream, data []byte, priming bool) {
	ev := sseEvent{data: data, priming: priming}
	if !o.h.opts.NoEventIDs {
		ev.id = o.tag + strconv.Itoa(st.num) + "-" + strconv.Itoa(st.base+len(st.events))
	}
	st.events = append(st.events, ev)
	st.unsentSize += len(data)
	o.trimLocked(st)
	close(st.changed)
	st.changed = make(chan struct{})
}

// trimLocked drops st's oldest events past the bounds of what a stream
// keeps (see keepWritten). Not cleared: a writer may be reading
// them. The array is let go once append grows a new one, copying only
// what is kept.
func (o *httpOut) trimLocked(st *replyStream) {
	written := max(st.delivered-st.base, 0)
	drop := written - keepWritten
	for i := written; len(st.events)-i > 1 && (len(st.events)-i > maxUnsentEvents || st.unsentSize > maxUnsentBytes); i++ {
		st.unsentSize -= len(st.events[i].data)
		drop = i + 1
	}
	if drop > 0 {
		st.events = st.events[drop:]
		st.base += drop
	}
}

func (o *httpOut) send(ctx context.Context, msg jsonrpc.Message, related jsonrpc.ID) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	resp, isResp := msg.(*jsonrpc.Response)
	o.mu.Lock()
	defer o.mu.Unlock()
	st := o.byRequest[related]
	if st != nil && st.json {
		if isResp && resp.ID == related {
			st.response <- resp // room for every response it waits for
			delete(o.byRequest, related)
			if st.pending--; st.pending == 0 {
				o.endedLocked(st)
			}
			return nil
		}
		st = nil // a JSON reply carries only the responses
	}
	if st == nil || st.final {
		st = o.standalone
	}
	o.appendLocked(st, data, false)
	if st != o.standalone && isResp && resp.ID == related {
		delete(o.byRequest, related)
		if st.pending--; st.pending == 0 {
			st.final = true
			o.endedLocked(st)
		}
	}
	return nil
}

func (o *httpOut) raw(ctx context.Context, b []byte, related jsonrpc.ID) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	st := o.byRequest[related]
	if st == nil || st.json || st.final {
		st = o.standalone
	}
	o.appendLocked(st, []byte(strings.TrimRight(string(b), "\n")), false)
	return nil
}

// crash cuts every open connection of the session and forgets the session,
// as if the server process had died.
func (o *httpOut) crash() {
	o.crashOnce.Do(func() { close(o.crashed) })
	o.h.forget(o.ss.ID())
	o.ss.shutdown()
}

func (o *httpOut) close() {}

// resumePoint looks up the stream and position a Last-Event-ID names. A
// sealed session's id from another life of the session (another replica,
// or this one before a restart) resumes the standalone stream from now
// (pos -1): its events were that replica's and are gone with it.
func (o *httpOut) resumePoint(lastID string) (*replyStream, int, error) {
	if o.tag != "" {
		rest, ours := strings.CutPrefix(lastID, o.tag)
		if !ours {
			if strings.HasSuffix(strings.SplitN(lastID, "-", 2)[0], ".0") {
				return o.standalone, -1, nil
			}
			return nil, 0, fmt.Errorf("Last-Event-ID names an event this replica never sent (the session moved here); a reply's stream cannot be resumed on another replica")
		}
		lastID = rest
	}
	num, idx, ok := strings.Cut(lastID, "-")
	n, err1 := strconv.Atoi(num)
	i, err2 := strconv.Atoi(idx)
	if !ok || err1 != nil || err2 != nil || num+"-"+idx != strconv.Itoa(n)+"-"+strconv.Itoa(i) {
		return nil, 0, fmt.Errorf("Last-Event-ID %q is not an event id of this server", lastID)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	st := o.streams[n]
	if st == nil || i < 0 || i >= st.base+len(st.events) {
		return nil, 0, fmt.Errorf("Last-Event-ID %q names no event of this session", lastID)
	}
	// An event the standalone stream no longer keeps: it goes on from
	// the oldest it does (what came between is gone).
	return st, max(i+1, st.base), nil
}

// attach marks st as being written by a connection; false if one already is.
func (o *httpOut) attach(st *replyStream) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if st.attached {
		return false
	}
	st.attached = true
	return true
}

func (o *httpOut) detach(st *replyStream) {
	o.mu.Lock()
	st.attached = false
	o.mu.Unlock()
}

// wrote notes that st was written up to pos, batch being the events
// written last, which end there: once a batch, not per event, as the lock
// is the session's.
func (o *httpOut) wrote(st *replyStream, batch []sseEvent, pos int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	start := pos - len(batch)
	// Those before delivered were counted by an earlier connection, those
	// before base when trimLocked dropped them.
	for j := max(st.delivered, st.base, start); j < pos; j++ {
		st.unsentSize -= len(batch[j-start].data)
	}
	if pos > st.delivered {
		st.delivered = pos
		if pos-st.base > 2*keepWritten {
			o.trimLocked(st) // now and then, not per batch
		}
	}
}

// writeStream writes st's events from index pos on, as they come, until
// the reply is complete, the client goes away or the session ends. The
// caller has attached st and called beginEventStream, which leaves the
// response header unsent: it goes out with the first events, or alone
// before the first wait, so that the client sees the stream open either
// way without a write of its own when events are ready.
func (o *httpOut) writeStream(w http.ResponseWriter, r *http.Request, st *replyStream, pos int) {
	hf := &holdFlush{w: w}
	sw := sse.NewWriter(hf)
	sent := false               // whether the header has been flushed
	var drained <-chan struct{} // nil, never ready, for a reply's stream
	if st == o.standalone {
		drained = o.h.draining
	}
	for {
		o.mu.Lock()
		pos = max(pos, st.base) // what was dropped is gone
		evs := st.events[pos-st.base:]
		final, changed, cut := st.final, st.changed, st.cut
		o.mu.Unlock()
		for i, ev := range evs {
			if cut && !ev.priming {
				o.cutHere(w, st, ev)
			}
			e := sse.Event{Data: ev.data, ID: ev.id, HasID: ev.id != ""}
			if ev.priming && o.h.opts.Retry > 0 {
				e.Retry, e.HasRetry = o.h.opts.Retry, true
			}
			// The events taken together go out in one write: only
			// the last is flushed. The reply's last event is not
			// flushed at all: the handler returns at once, and
			// net/http then writes it with the chunked body's end in
			// one write, so the client reads both together and can
			// keep the connection; flushed alone, a client that stops
			// at the response closes the body before its end arrives,
			// which costs the connection (a new one per call).
			hf.hold = final || i < len(evs)-1
			if err := sw.WriteEvent(e); err != nil {
				o.wrote(st, evs[:i], pos)
				return // the client went away; the events stay for resumption
			}
			pos++
		}
		if len(evs) > 0 {
			sent = sent || !final
			o.wrote(st, evs, pos)
			continue
		}
		if final {
			return
		}
		if !sent {
			// Nothing to send yet: the header alone, so that the
			// client knows the stream is open while it waits.
			sent = true
			if http.NewResponseController(w).Flush() != nil {
				return
			}
		}
		o.abortIfCrashed()
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-o.ss.Done():
			o.abortIfCrashed()
			return
		case <-o.crashed:
			panic(http.ErrAbortHandler)
		case <-drained:
			return // see EndListenStreams; the events stay for resumption
		}
	}
}

// holdFlush passes an sse.Writer's flushes on to the ResponseWriter
// unless hold is set.
type holdFlush struct {
	w    http.ResponseWriter
	hold bool
}

func (h *holdFlush) Write(b []byte) (int, error) { return h.w.Write(b) }

func (h *holdFlush) FlushError() error {
	if h.hold {
		return nil
	}
	return http.NewResponseController(h.w).Flush()
}

// cutHere writes the first half of ev and drops the connection without
// ending the HTTP response properly, the way a dying server or proxy
// does. The event stays in the log for a client that resumes.
func (o *httpOut) cutHere(w http.ResponseWriter, st *replyStream, ev sseEvent) {
	o.mu.Lock()
	st.cut = false // a resumed stream goes through
	o.mu.Unlock()
	half := "data: " + string(ev.data[:len(ev.data)/2])
	if ev.id != "" {
		half = "id: " + ev.id + "\n" + half
	}
	_, _ = w.Write([]byte(half))
	_ = http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler)
}

// waitJSON waits for the response of a JSON reply.
func (o *httpOut) waitJSON(r *http.Request, st *replyStream) (*jsonrpc.Response, error) {
	select {
	case resp := <-st.response:
		return resp, nil
	case <-r.Context().Done():
		return nil, r.Context().Err()
	case <-o.ss.Done():
		o.abortIfCrashed()
		return nil, fmt.Errorf("%w: session ended", jsonrpc.ErrClosed)
	case <-o.crashed:
		panic(http.ErrAbortHandler)
	}
}

// abortIfCrashed drops the connection if the session crashed.
func (o *httpOut) abortIfCrashed() {
	select {
	case <-o.crashed:
		panic(http.ErrAbortHandler)
	default:
	}
}
