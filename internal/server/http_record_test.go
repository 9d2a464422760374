package server

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A client that already has the start of its answer finds the answer's
// status in the log, while the handler is still running: a streamed reply
// reaches the client before its handler returns, so a status recorded only
// then would be missing for a test that reads the log right after its call.
func TestRecordedStatusBeforeHandlerReturns(t *testing.T) {
	var log RequestLog
	release := make(chan struct{})
	done := make(chan struct{})
	ts := httptest.NewServer(recordingHandler(&log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("data: {}\n\n"))
		_ = http.NewResponseController(w).Flush()
		<-release // the handler is still running while the test reads the log
	})))
	defer ts.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatalf("reading the first event line: %v", err)
	}
	reqs := log.Requests()
	if len(reqs) != 1 || reqs[0].Status != http.StatusOK {
		t.Fatalf("log %+v while the stream is open, want one request with status 200", reqs)
	}
	close(release)
	<-done
}

// A handler that writes nothing is answered 200 by net/http; one that drops
// the connection leaves the status 0.
func TestRecordedStatusImplicitAndDropped(t *testing.T) {
	var log RequestLog
	ts := httptest.NewServer(recordingHandler(&log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/drop" {
			panic(http.ErrAbortHandler)
		}
	})))
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/quiet")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp, err := http.Get(ts.URL + "/drop"); err == nil {
		resp.Body.Close()
		t.Fatalf("/drop answered %s, want a dropped connection", resp.Status)
	}
	reqs := log.Requests()
	got := map[string]int{}
	for _, r := range reqs {
		got[r.Path] = r.Status
	}
	if got["/quiet"] != http.StatusOK || got["/drop"] != 0 || len(reqs) < 2 {
		t.Errorf("statuses %v, want /quiet 200 and /drop 0", got)
	}
}
