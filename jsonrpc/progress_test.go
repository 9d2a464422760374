package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/latecheck"
)

// FuzzWithProgressToken: the fast paths give what the general one does
// (the same object, with the token in _meta), and never accept what it
// refuses.
func FuzzWithProgressToken(f *testing.F) {
	for _, s := range []string{`{}`, `{"_meta":{"a":1},"b":2}`, `{"_meta":{"progressToken":1}}`, `{"_meta":{"k":"}"},"x":[{}]}`, `{"name":"x"}`, `{"_meta":{"a":"\\"}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		got, err := withProgressToken(json.RawMessage(params), 7, false)
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(params), &obj) != nil || obj == nil {
			return // the general path's errors are tested above
		}
		meta := map[string]any{}
		if raw, ok := obj["_meta"]; ok && string(raw) != "null" {
			if json.Unmarshal(raw, &meta) != nil || meta == nil {
				return
			}
		}
		if err != nil {
			t.Fatalf("withProgressToken(%s): %v", params, err)
		}
		meta["progressToken"] = float64(7)
		var want, have map[string]any
		json.Unmarshal([]byte(params), &want)
		want["_meta"] = meta
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatalf("withProgressToken(%s) = %s: %v", params, got, err)
		}
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("withProgressToken(%s) = %s, want %v", params, got, want)
		}
	})
}

func TestWithProgressToken(t *testing.T) {
	tests := []struct {
		params string
		want   string // compared as decoded JSON
	}{
		{``, `{"_meta":{"progressToken":5}}`},
		{`{}`, `{"_meta":{"progressToken":5}}`},
		{` { } `, `{"_meta":{"progressToken":5}}`},
		{`{"name":"echo","arguments":{"m":"x"}}`, `{"_meta":{"progressToken":5},"name":"echo","arguments":{"m":"x"}}`},
		{`{"_meta":{"trace":"abc"},"name":"echo"}`, `{"_meta":{"trace":"abc","progressToken":5},"name":"echo"}`},
		{`{"_meta":null,"a":1}`, `{"_meta":{"progressToken":5},"a":1}`},
		{`{"_meta":{"progressToken":"theirs"}}`, `{"_meta":{"progressToken":5}}`},
		{`{"\u005fmeta":{"k":1}}`, `{"_meta":{"k":1,"progressToken":5}}`},
		{`{"metadata":1}`, `{"_meta":{"progressToken":5},"metadata":1}`},
		// A leading _meta, as the stateless era's requests have.
		{`{"_meta":{}}`, `{"_meta":{"progressToken":5}}`},
		{`{"_meta":{ },"a":1}`, `{"_meta":{"progressToken":5},"a":1}`},
		{`{"_meta":{"io.x/v":"1","c":{"a":{},"b":[1,{}]}},"name":"echo","arguments":{"m":"}"}}`, `{"_meta":{"progressToken":5,"io.x/v":"1","c":{"a":{},"b":[1,{}]}},"name":"echo","arguments":{"m":"}"}}`},
		{`{"_meta":{"k":"}{"},"n":1}`, `{"_meta":{"k":"}{","progressToken":5},"n":1}`},
		{`{"_meta":{"progressToken":"theirs"},"x":1}`, `{"_meta":{"progressToken":5},"x":1}`},
		{`{"_meta":{"progress\u0054oken":"theirs"}}`, `{"_meta":{"progressToken":5}}`},
		{`{"_meta":{"k":"a\"b"},"n":"x\ny"}`, `{"_meta":{"k":"a\"b","progressToken":5},"n":"x\ny"}`},
		{`{"_meta":{"k":1},"_meta":{"j":2}}`, `{"_meta":{"j":2,"progressToken":5}}`},
	}
	for _, tt := range tests {
		got, err := withProgressToken(json.RawMessage(tt.params), 5, false)
		if err != nil {
			t.Errorf("withProgressToken(%s): %v", tt.params, err)
			continue
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Errorf("withProgressToken(%s) = %s, not JSON: %v", tt.params, got, err)
			continue
		}
		json.Unmarshal([]byte(tt.want), &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("withProgressToken(%s) = %s, want %s", tt.params, got, tt.want)
		}
	}
	for params, want := range map[string]string{
		`[1,2]`:            "params must be a JSON object",
		`"text"`:           "params must be a JSON object",
		`{"a":`:            "not valid JSON",
		`{"_meta":5}`:      "params._meta must be an object",
		`{"_meta":[1]}`:    "params._meta must be an object",
		`{"meta":1} extra`: "not valid JSON",
	} {
		if _, err := withProgressToken(json.RawMessage(params), 5, false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("withProgressToken(%s) error %v, want %q", params, err, want)
		}
	}
}

func TestProgressRefusesNonObjectParams(t *testing.T) { run(t, testProgressRefusesNonObjectParams) }

func testProgressRefusesNonObjectParams(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		_, err := c.Call(context.Background(), "x", []int{1}, &CallOptions{OnProgress: func(Progress) {}})
		if err == nil || !strings.Contains(err.Error(), "x (id 1): params must be a JSON object to carry a progress token") {
			t.Fatalf("got %v", err)
		}
		synctest.Wait()
		if len(p.s.out) != 0 {
			t.Fatal("a request was sent anyway")
		}
	})
}

// progressToken returns params._meta.progressToken of a request.
func progressToken(t *testing.T, req *Request) json.RawMessage {
	t.Helper()
	var params struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(req.Params, &params); err != nil || params.Meta.ProgressToken == nil {
		t.Fatalf("request %s has no progress token (%v)", describe(req), err)
	}
	return params.Meta.ProgressToken
}

func progressNote(token string, progress float64, extra string) *Notification {
	return &Notification{Method: MethodProgress, Params: json.RawMessage(fmt.Sprintf(`{"progressToken":%s,"progress":%v%s}`, token, progress, extra))}
}

func TestProgressReachesTheCallInOrder(t *testing.T) { run(t, testProgressReachesTheCallInOrder) }

func testProgressReachesTheCallInOrder(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		var seen []string
		var subMu sync.Mutex
		var subSeen []string
		c.Subscribe(MethodProgress, func(n *Notification) {
			subMu.Lock()
			defer subMu.Unlock()
			subSeen = append(subSeen, string(n.Params))
		})
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", map[string]string{"name": "long"}, &CallOptions{
				OnProgress: func(pr Progress) {
					total := "nil"
					if pr.Total != nil {
						total = fmt.Sprint(*pr.Total)
					}
					seen = append(seen, fmt.Sprintf("%v/%s %q", pr.Progress, total, pr.Message))
				},
			})
			done <- err
		}()
		req := p.recvRequest()
		if tok := progressToken(t, req); string(tok) != "1" {
			t.Errorf("progress token %s, want the fresh token 1", tok)
		}
		if !strings.Contains(string(req.Params), `"name":"long"`) {
			t.Errorf("params lost: %s", req.Params)
		}
		p.send(progressNote("1", 0.25, `,"total":1,"message":"starting"`))
		p.send(progressNote(`"1"`, 9, ``)) // a string token is another token
		p.send(progressNote("42", 9, ``))  // unknown token: dropped
		p.send(progressNote("1", 0.5, ``))
		p.send(progressNote("1", 1, `,"total":1,"message":"done"`))
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		want := []string{`0.25/1 "starting"`, `0.5/nil ""`, `1/1 "done"`}
		if !reflect.DeepEqual(seen, want) {
			t.Errorf("callback saw %q, want %q", seen, want)
		}
		// Progress after the response is for a finished call: dropped.
		p.send(progressNote("1", 2, ``))
		synctest.Wait()
		subMu.Lock()
		defer subMu.Unlock()
		if len(subSeen) != 6 {
			t.Errorf("subscribers saw %d progress notifications, want all 6: %q", len(subSeen), subSeen)
		}
	})
}

func TestProgressKeepsConcurrentCallsApart(t *testing.T) {
	run(t, testProgressKeepsConcurrentCallsApart)
}

func testProgressKeepsConcurrentCallsApart(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		got := [2][]float64{}
		done := make(chan error)
		for i := range 2 {
			go func() {
				_, err := c.Call(context.Background(), "tools/call", map[string]int{"i": i}, &CallOptions{
					OnProgress: func(pr Progress) { got[i] = append(got[i], pr.Progress) },
				})
				done <- err
			}()
		}
		reqs := map[int]*Request{}
		for range 2 {
			r := p.recvRequest()
			var params struct{ I int }
			json.Unmarshal(r.Params, &params)
			reqs[params.I] = r
		}
		for step := range 3 {
			for i := range 2 {
				p.send(progressNote(string(progressToken(t, reqs[i])), float64(10*i+step), ``))
			}
		}
		p.reply(reqs[0], `{}`)
		p.reply(reqs[1], `{}`)
		<-done
		<-done
		if !reflect.DeepEqual(got, [2][]float64{{0, 1, 2}, {10, 11, 12}}) {
			t.Fatalf("progress per call = %v", got)
		}
	})
}

func TestProgressExtendsTheDeadline(t *testing.T) { run(t, testProgressExtendsTheDeadline) }

func testProgressExtendsTheDeadline(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: 10 * time.Second})
		start := time.Now()
		done := make(chan error)
		count := 0
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) { count++ }})
			done <- err
		}()
		req := p.recvRequest()
		for i := range 4 {
			time.Sleep(8 * time.Second)
			p.send(progressNote("1", float64(i), ``))
		}
		// 32s in: far past the 10s timeout, still alive thanks to progress.
		time.Sleep(8 * time.Second)
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatalf("call with steady progress failed after %s: %v", time.Since(start), err)
		}
		if count != 4 {
			t.Errorf("callback ran %d times, want 4", count)
		}
	})
}

func TestProgressStopsThenTimesOut(t *testing.T) { run(t, testProgressStopsThenTimesOut) }

func testProgressStopsThenTimesOut(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: 10 * time.Second})
		start := time.Now()
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) {}})
			done <- err
		}()
		p.recvRequest()
		time.Sleep(8 * time.Second)
		p.send(progressNote("1", 1, ``))
		err := <-done
		if took := time.Since(start); took != 18*time.Second {
			t.Errorf("timed out after %s, want 18s (last progress at 8s + 10s)", took)
		}
		if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "tools/call (id 1) timed out after 18s: no progress for 10s") {
			t.Fatalf("got %v", err)
		}
		n := p.recvNotification()
		if string(n.Params) != `{"requestId":1,"reason":"timed out after 18s: no progress for 10s"}` {
			t.Errorf("cancel notice = %s", describe(n))
		}
	})
}

func TestProgressCeiling(t *testing.T) { run(t, testProgressCeiling) }

func testProgressCeiling(t *testing.T, m readMode) {
	tests := []struct {
		name       string
		max        time.Duration
		callMax    time.Duration // CallOptions.MaxTimeout; zero takes the connection's
		timeout    time.Duration
		every      time.Duration
		wantAfter  time.Duration
		wantReason string
	}{
		{"MaxTimeout", 25 * time.Second, 0, 10 * time.Second, 8 * time.Second, 25 * time.Second,
			"timed out after 25s: progress may not extend a call beyond its MaxTimeout (25s)"},
		{"default ceiling", 0, 0, 10 * time.Minute, 9 * time.Minute, time.Hour,
			"timed out after 1h0m0s: progress may not extend a call beyond its MaxTimeout (1h0m0s)"},
		// The message names the ceiling that applied: the call's, not the
		// connection's.
		{"call's MaxTimeout", 25 * time.Second, 40 * time.Second, 10 * time.Second, 8 * time.Second, 40 * time.Second,
			"timed out after 40s: progress may not extend a call beyond its MaxTimeout (40s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, p := newTestConn(t, m, Options{Timeout: tt.timeout, MaxTimeout: tt.max})
				start := time.Now()
				done := make(chan error)
				go func() {
					_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{MaxTimeout: tt.callMax, OnProgress: func(Progress) {}})
					done <- err
				}()
				p.recvRequest()
				ticker := time.NewTicker(tt.every)
				defer ticker.Stop()
				for i := 0; ; i++ {
					select {
					case err := <-done:
						if took := time.Since(start); took != tt.wantAfter {
							t.Errorf("gave up after %s, want the ceiling %s", took, tt.wantAfter)
						}
						if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), tt.wantReason) {
							t.Fatalf("got %v, want %q", err, tt.wantReason)
						}
						return
					case <-ticker.C:
						if time.Since(start) > 2*tt.wantAfter {
							t.Fatalf("still running after %s: progress was not capped", time.Since(start))
						}
						p.send(progressNote("1", float64(i), ``))
					}
				}
			})
		})
	}
}

func TestProgressWithoutCeiling(t *testing.T) { run(t, testProgressWithoutCeiling) }

func testProgressWithoutCeiling(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: 10 * time.Minute, MaxTimeout: NoTimeout})
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) {}})
			done <- err
		}()
		req := p.recvRequest()
		for i := range 20 { // 3 hours of steady progress
			time.Sleep(9 * time.Minute)
			p.send(progressNote("1", float64(i), ``))
		}
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

// TestCallerCancelDuringProgress: once progress moved the deadline, the
// caller's ctx must still end the call at once.
func TestCallerCancelDuringProgress(t *testing.T) { run(t, testCallerCancelDuringProgress) }

func testCallerCancelDuringProgress(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: 10 * time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() {
			_, err := c.Call(ctx, "tools/call", nil, &CallOptions{OnProgress: func(Progress) {}})
			done <- err
		}()
		p.recvRequest()
		time.Sleep(8 * time.Second)
		p.send(progressNote("1", 1, ``))
		time.Sleep(5 * time.Second) // past the first deadline, within the moved one
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v", err)
		}
		if n := p.recvNotification(); n.Method != MethodCancelled {
			t.Fatal(describe(n))
		}
	})
}

func TestProgressCallbackPanicGivesUpTheCall(t *testing.T) {
	run(t, testProgressCallbackPanicGivesUpTheCall)
}

func testProgressCallbackPanicGivesUpTheCall(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		c, p := newTestConn(t, m, Options{ErrorHook: hooks.hook})
		recovered := make(chan any)
		go func() {
			defer func() { recovered <- recover() }()
			c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) { panic("callback bug") }})
		}()
		req := p.recvRequest()
		p.send(progressNote("1", 1, ``))
		if v := <-recovered; v != "callback bug" {
			t.Fatalf("recovered %v", v)
		}
		if n := p.recvNotification(); n.Method != MethodCancelled {
			t.Fatal(describe(n))
		}
		p.reply(req, `{}`) // late: dropped quietly
		synctest.Wait()
		if errs := hooks.all(); len(errs) != 0 {
			t.Errorf("reports: %v", errs)
		}
	})
}

func TestPeerRequestKeepsAnIdleCallAlive(t *testing.T) { run(t, testPeerRequestKeepsAnIdleCallAlive) }

// A tool that asks the client something (an elicitation a person answers
// in 25s) is not idle while it waits, nor for a timeout after the answer;
// a keep-alive ping, though, pushes nothing.
func testPeerRequestKeepsAnIdleCallAlive(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		answer := make(chan struct{})
		c, p := newTestConn(t, m, Options{Timeout: 10 * time.Second, Handler: func(ctx context.Context, _ *Conn, req *Request) (any, error) {
			if req.Method == "elicitation/create" {
				<-answer
			}
			return map[string]any{}, nil
		}})
		start := time.Now()
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) {}})
			done <- err
		}()
		req := p.recvRequest()
		time.Sleep(time.Second)
		p.send(&Request{ID: StringID("s1"), Method: "elicitation/create"})
		time.Sleep(25 * time.Second) // the person thinks, far past the 10s timeout
		close(answer)
		if r := p.recvResponse(); r.ID != StringID("s1") {
			t.Fatalf("response %s", describe(r))
		}
		time.Sleep(8 * time.Second) // the tool goes on with the answer
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatalf("a call whose server asked the client a question failed after %s: %v", time.Since(start), err)
		}

		// A ping answered meanwhile does not keep a silent call alive.
		start = time.Now()
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) {}})
			done <- err
		}()
		p.recvRequest()
		time.Sleep(8 * time.Second)
		p.send(&Request{ID: StringID("s2"), Method: "ping"})
		p.recvResponse()
		if err := <-done; !errors.Is(err, ErrTimeout) || time.Since(start) != 10*time.Second {
			t.Fatalf("after %s: %v, want a timeout at 10s", time.Since(start), err)
		}
	})
}

// TestTokenInRoom: the token written into the room in front of params
// gives the bytes withProgressToken gives them, in that room; room that
// breaks latecheck.Params' contract is refused and left as it was.
func TestTokenInRoom(t *testing.T) {
	for _, params := range []string{`{}`, `{"name":"echo"}`, `{"name":"a","arguments":{"k":[1,{}],"m":"}{"}}`} {
		for _, token := range []int64{1, 42, math.MaxInt64, math.MinInt64} {
			room := append(make([]byte, jsonenc.TokenRoom), params...)
			got, ok := tokenInRoom(room, len(params), token)
			want, err := withProgressToken(json.RawMessage(params), token, true)
			if !ok || err != nil || string(got) != string(want) {
				t.Errorf("tokenInRoom(%s, %d) = %s, %v; withProgressToken gives %s, %v", params, token, got, ok, want, err)
				continue
			}
			if &got[len(got)-1] != &room[len(room)-1] {
				t.Errorf("tokenInRoom(%s, %d): the params are not a tail of the room", params, token)
			}
		}
	}
	for name, tc := range map[string]struct {
		room   string
		params int
	}{
		"too little room": {strings.Repeat(" ", jsonenc.TokenRoom-1) + `{"a":1}`, 7},
		"not an object":   {strings.Repeat(" ", jsonenc.TokenRoom) + `[1]`, 3},
		"too short":       {strings.Repeat(" ", jsonenc.TokenRoom) + `{`, 1},
	} {
		room := []byte(tc.room)
		if got, ok := tokenInRoom(room, tc.params, 5); ok || string(room) != tc.room {
			t.Errorf("%s: tokenInRoom = %s, %v; room now %q", name, got, ok, room)
		}
	}
}

// TestCallPutsTheTokenInTheParamsRoom: params that come with room (a
// jsonenc.Roomy, or a latecheck.Params with one) are sent with the token
// made in that room, not in a copy; when PrepareRequest hands other params
// back, those get the token the usual way and the room is not touched.
func TestCallPutsTheTokenInTheParamsRoom(t *testing.T) { run(t, testCallPutsTheTokenInTheParamsRoom) }

func testCallPutsTheTokenInTheParamsRoom(t *testing.T, m readMode) {
	const params = `{"name":"echo","arguments":{"m":"x"}}`
	for _, tc := range []struct {
		replaced, late bool
	}{{false, false}, {false, true}, {true, false}, {true, true}} {
		replaced := tc.replaced
		synctest.Test(t, func(t *testing.T) {
			var opts Options
			if replaced {
				opts.PrepareRequest = func(_ string, p json.RawMessage) (json.RawMessage, error) {
					return bytes.Clone(p), nil
				}
			}
			c, p := newTestConn(t, m, opts)
			room := append(make([]byte, jsonenc.TokenRoom), params...)
			before := bytes.Clone(room)
			var sent any = (*jsonenc.Roomy)(&room)
			if tc.late {
				sent = &latecheck.Params{Encoded: room[jsonenc.TokenRoom:], Room: room}
			}
			done := make(chan error)
			go func() {
				_, err := c.Call(context.Background(), "tools/call", sent, &CallOptions{OnProgress: func(Progress) {}})
				done <- err
			}()
			req := p.recvRequest()
			if want := `{"_meta":{"progressToken":1},"name":"echo","arguments":{"m":"x"}}`; string(req.Params) != want {
				t.Errorf("%+v: params %s, want %s", tc, req.Params, want)
			}
			if inRoom := bytes.HasSuffix(room, req.Params); inRoom == replaced {
				t.Errorf("%+v: the room is %q after the call's write", tc, room)
			}
			if replaced && !bytes.Equal(room, before) {
				t.Errorf("%+v: the room was written: %q", tc, room)
			}
			p.send(&Response{ID: req.ID, Result: json.RawMessage(`{}`)})
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}
