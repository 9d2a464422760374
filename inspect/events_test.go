package inspect

import "testing"

// TestHubCutsOffAPageBehindByBytes: a server's big messages behind a page
// that reads slowly must not pile up past the wire buffer's own bound
// (the queue keeps entries the buffer has let go). The page is cut off,
// to reconnect from a fresh snapshot, long before the count bound.
func TestHubCutsOffAPageBehindByBytes(t *testing.T) {
	h := newHub()
	sub, ok := h.subscribe()
	if !ok {
		t.Fatal("subscribe refused")
	}
	const size = 1 << 20
	n := subscriberBytes/size + 8 // far below subscriberQueue
	if n >= subscriberQueue {
		t.Fatalf("test needs fewer than %d events, has %d", subscriberQueue, n)
	}
	for range n {
		h.publish(event{kind: "wire", wire: &WireEntry{Size: size}})
	}
	queued, cut := drain(sub)
	if queued > subscriberBytes {
		t.Errorf("%d bytes were queued for one page, more than its bound %d", queued, subscriberBytes)
	}
	if !cut {
		t.Error("the page that fell behind was not cut off")
	}
	h.unsubscribe(sub) // a no-op once cut off
}

// drain takes what waits in sub's queue, without waiting: the bytes, and
// whether the stream was cut off.
func drain(sub *subscriber) (queued int, cut bool) {
	for {
		select {
		case e, ok := <-sub.ch:
			if !ok {
				return queued, true
			}
			queued += e.cost()
		default:
			return queued, false
		}
	}
}

// TestHubKeepsOneBigEventForAnEmptyQueue: a message larger than the whole
// bound still reaches a page that is not behind, rather than cutting it
// off again on every reconnect.
func TestHubKeepsOneBigEventForAnEmptyQueue(t *testing.T) {
	h := newHub()
	sub, _ := h.subscribe()
	defer h.unsubscribe(sub)
	h.publish(event{kind: "wire", wire: &WireEntry{Size: 2 * subscriberBytes}})
	e, ok := <-sub.ch
	if !ok || e.wire == nil {
		t.Fatal("the page was cut off for one big message on an empty queue")
	}
	sub.took(e)
	h.publish(event{kind: "call", call: []byte(`{}`)})
	if _, ok := <-sub.ch; !ok {
		t.Fatal("the page was cut off after it had taken the big message")
	}
}
