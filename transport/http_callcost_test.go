package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/latecheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// cannedRoundTripper answers every POST in memory, as the bench's canned
// server does over loopback: initialize with a session id, any other
// request with one text result (a JSON body, or an SSE stream of one
// event), anything else with 202. Its answers come from two goroutines of
// its own, as from a server on two cores, so that POSTs wait for them and
// overlap as they do over loopback. It leaves out net/http and the
// network, so that what a benchmark through it measures is the client's
// own work per call (plus this answerer's, the same for every build).
type cannedRoundTripper struct {
	sse  bool
	reqs chan cannedExchange
}

// cannedExchange is a POST's body and where its answer goes.
type cannedExchange struct {
	req  *http.Request
	body []byte
	out  chan *http.Response
}

// newCannedRoundTripper starts its answerers, which end when stop is
// closed.
func newCannedRoundTripper(sse bool, stop <-chan struct{}) *cannedRoundTripper {
	rt := &cannedRoundTripper{sse: sse, reqs: make(chan cannedExchange)}
	for range 2 {
		go func() {
			for {
				select {
				case x := <-rt.reqs:
					x.out <- rt.answer(x.req, x.body)
				case <-stop:
					return
				}
			}
		}()
	}
	return rt
}

func (rt *cannedRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	x := cannedExchange{req: req, body: body, out: make(chan *http.Response, 1)}
	select {
	case rt.reqs <- x:
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	select {
	case resp := <-x.out:
		return resp, nil
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
}

func (rt *cannedRoundTripper) answer(req *http.Request, body []byte) *http.Response {
	resp := &http.Response{StatusCode: http.StatusAccepted, Header: make(http.Header, 3), Body: http.NoBody, Request: req,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	id, ok := cannedID(body)
	if !ok {
		return resp
	}
	out := append(make([]byte, 0, 160), `event: message`+"\n"+`data: {"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	if bytes.Contains(body, []byte(`"method":"initialize"`)) {
		resp.Header["Mcp-Session-Id"] = []string{"canned-1"}
		out = append(out, `,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"canned","version":"1"}}}`...)
	} else {
		out = append(out, `,"result":{"content":[{"type":"text","text":"hello, world"}]}}`...)
	}
	resp.StatusCode = http.StatusOK
	if rt.sse {
		out = append(out, "\n\n"...)
		resp.Header["Content-Type"] = []string{"text/event-stream"}
	} else {
		out = out[len("event: message\ndata: "):]
		resp.Header["Content-Type"] = []string{"application/json"}
	}
	resp.ContentLength = int64(len(out))
	resp.Body = io.NopCloser(bytes.NewReader(out))
	return resp
}

// cannedID is the request id in a POSTed body, as its JSON text; false
// for a body without one (a notification).
func cannedID(body []byte) ([]byte, bool) {
	_, rest, ok := bytes.Cut(body, []byte(`"id":`))
	if !ok {
		return nil, false
	}
	end := bytes.IndexAny(rest, ",}")
	if end < 0 {
		return nil, false
	}
	return rest[:end], true
}

// BenchmarkStreamableHTTPCallCost is the bench's concurrent workload with
// the server and net/http taken out: 64 callers (at -cpu 2) call through
// one engine over Streamable HTTP, each call with progress (as every
// tools/call of the mcp client) and a caller's ctx with a deadline (as the
// bench's), answered by cannedRoundTripper. Its ns/op is the client's own
// CPU per call, which the loopback bench cannot resolve below ±10%.
//
// The ctx-each variants give each call a ctx of its own instead (with a
// timeout, as a program that bounds each call does).
func BenchmarkStreamableHTTPCallCost(b *testing.B) {
	for _, v := range []struct {
		sse, ctxEach bool
	}{{false, false}, {true, false}, {false, true}, {true, true}} {
		sse := v.sse
		name := "json"
		if sse {
			name = "sse"
		}
		if v.ctxEach {
			name += "/ctx-each"
		}
		b.Run(name, func(b *testing.B) {
			st, err := (&StreamableHTTP{URL: "http://127.0.0.1:1/mcp", DisableListener: true}).Connect(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			hs := st.(*httpStream)
			hs.sender.close()
			stop := make(chan struct{})
			defer close(stop)
			hs.sender = &httpSender{rt: newCannedRoundTripper(sse, stop)}
			c := jsonrpc.NewConn(st, jsonrpc.Options{})
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
			defer cancel()
			if _, err := c.Call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}`), nil); err != nil {
				b.Fatal(err)
			}
			// As the mcp client's tools/call: params encoded by it,
			// the result left for it to check.
			params := jsonenc.Encoded(`{"name":"echo","arguments":{"message":"hello, world"}}`)
			opts := &jsonrpc.CallOptions{OnProgress: func(jsonrpc.Progress) {}}
			b.ReportAllocs()
			b.SetParallelism(32)
			b.ResetTimer()
			cpu0 := processCPU()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					callCtx, cancelCall := ctx, context.CancelFunc(nil)
					if v.ctxEach {
						callCtx, cancelCall = context.WithTimeout(ctx, time.Minute)
					}
					res, err := c.Call(callCtx, "tools/call", &latecheck.Params{Encoded: params}, opts)
					if cancelCall != nil {
						cancelCall()
					}
					if err != nil {
						b.Error(err)
						return
					}
					if len(res) < 10 {
						b.Error("short result " + strconv.Quote(string(res)))
						return
					}
				}
			})
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the CPU time the process used so far (user and system),
// which, unlike ns/op, does not grow when other processes take the cores.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
