package mcptest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// replayOf reads a recording and replays it until the test ends.
func replayOf(t *testing.T, r io.Reader) *mcptest.Replay {
	t.Helper()
	replay, err := mcptest.NewReplay(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { replay.Close() })
	return replay
}

// replaySession runs the calls of a small session over tr and returns
// their results, in order.
func replaySession(t *testing.T, tr transport.Transport) []string {
	t.Helper()
	stream, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{})
	defer conn.Close()
	ctx := context.Background()
	var results []string
	for _, c := range []struct {
		method string
		params any
	}{
		{"initialize", map[string]any{"protocolVersion": mcptest.LatestProtocolVersion, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "replay-test", "version": "1"}}},
		{"tools/list", nil},
		{"tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "first"}}},
		{"tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "second"}}},
	} {
		res, err := conn.Call(ctx, c.method, c.params, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.method, err)
		}
		results = append(results, string(res))
		if c.method == "initialize" {
			if err := conn.Notify(ctx, "notifications/initialized", nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	return results
}

// A session recorded against a real server replays against the recording
// alone with the same results; a request the recording does not hold gets
// an error and is listed.
func TestRecordingRoundTrip(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	var file bytes.Buffer
	rec := transport.NewRecorder(&file)
	live := replaySession(t, transport.Record(srv.Transport(), rec, "pipe"))
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}

	replay := replayOf(t, bytes.NewReader(file.Bytes()))
	replayed := replaySession(t, replay.Transport())
	for i := range live {
		if replayed[i] != live[i] {
			t.Errorf("call %d replayed %s, was %s", i, replayed[i], live[i])
		}
	}
	if u := replay.Unmatched(); len(u) != 0 {
		t.Fatalf("unmatched: %q", u)
	}

	// The recording is used up, and holds no echo of "third".
	stream, err := replay.Transport().Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{})
	defer conn.Close()
	_, err = conn.Call(context.Background(), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "third"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no recorded tools/call") {
		t.Fatalf("unrecorded call: %v, want the replay's error", err)
	}
	if u := replay.Unmatched(); len(u) != 1 || !strings.Contains(u[0], "third") {
		t.Fatalf("unmatched: %q", u)
	}
}

// Progress sent while a request was in flight is replayed before its
// response, and the matching ignores _meta (a new progress token).
func TestReplaySendsWhatCameWhileTheRequestWasInFlight(t *testing.T) {
	lines := `{"time":"2026-12-03T09:00:00Z","direction":"send","transport":"stdio","message":{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"old"}}}}
{"time":"2026-12-03T09:00:01Z","direction":"receive","transport":"stdio","message":{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}}
{"time":"2026-12-03T09:00:02Z","direction":"receive","transport":"stdio","message":{"jsonrpc":"2.0","id":5,"result":{"content":[]}}}
`
	replay := replayOf(t, strings.NewReader(lines))
	stream, err := replay.Transport().Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"slow","_meta":{"progressToken":"new"}}`)}
	if err := stream.Write(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	first, err := stream.Read(context.Background())
	if n, ok := first.(*jsonrpc.Notification); err != nil || !ok || n.Method != "notifications/message" {
		t.Fatalf("first message %#v, %v; want the log notification", first, err)
	}
	second, err := stream.Read(context.Background())
	if r, ok := second.(*jsonrpc.Response); err != nil || !ok || r.ID != req.ID || string(r.Result) != `{"content":[]}` {
		t.Fatalf("second message %#v, %v; want the response under the new id", second, err)
	}
}
