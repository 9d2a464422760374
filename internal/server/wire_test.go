package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// safetyNet bounds every wait of a test so that a bug fails the test with
// a message instead of hanging it. It is never what a test waits for.
const safetyNet = 2 * time.Minute

// wireClient is a deliberately dumb MCP client for asserting the wire: it
// reads raw lines, keeps every one, and does nothing on its own except
// answering the server's requests with answer.
type wireClient struct {
	t      testing.TB
	w      io.WriteCloser
	lines  chan wireLine
	nextID int64
	// frames holds every raw line read, in order.
	frames []string
	// notes holds the notifications read while waiting for responses.
	notes []*jsonrpc.Notification
	// answer handles server→client requests; nil answers -32601.
	answer func(*jsonrpc.Request) (any, error)
}

type wireLine struct {
	text string
	err  error
}

func newWireClient(t testing.TB, r io.Reader, w io.WriteCloser) *wireClient {
	c := &wireClient{t: t, w: w, lines: make(chan wireLine, 16)}
	go func() {
		br := bufio.NewReaderSize(r, 1<<16)
		for {
			line, err := readLine(br)
			if len(line) > 0 {
				c.lines <- wireLine{text: string(line)}
			}
			if err != nil {
				c.lines <- wireLine{err: err}
				close(c.lines)
				return
			}
		}
	}()
	return c
}

// serveResult is Serve's outcome: done is closed when it returned.
type serveResult struct {
	done chan struct{}
	err  error
}

// wait returns Serve's error once it returned.
func (r *serveResult) wait(t testing.TB) error {
	t.Helper()
	select {
	case <-r.done:
		return r.err
	case <-time.After(safetyNet):
		t.Fatalf("Serve did not return within %v", safetyNet)
		return nil
	}
}

// pipeClient serves a new session of s on raw in-memory pipes and returns
// a wire client on the other end, plus Serve's outcome.
func pipeClient(t testing.TB, s *Server) (*wireClient, *serveResult) {
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	st := newLineStream(c2sR, s2cW, func() error { return errors.Join(c2sR.Close(), s2cW.Close()) })
	res := &serveResult{done: make(chan struct{})}
	go func() {
		defer close(res.done)
		res.err = s.Serve(context.Background(), st)
	}()
	c := newWireClient(t, s2cR, c2sW)
	t.Cleanup(func() {
		_ = c2sW.Close()
		_ = s2cR.Close()
		res.wait(t)
		c.drain()
	})
	return c, res
}

// awaitNote returns the first notification of method, from those already
// collected or by reading on.
func (c *wireClient) awaitNote(method string) *jsonrpc.Notification {
	c.t.Helper()
	for i, n := range c.notes {
		if n.Method == method {
			c.notes = append(c.notes[:i:i], c.notes[i+1:]...)
			return n
		}
	}
	for {
		m, ok := c.next()
		if !ok {
			c.t.Fatalf("stream ended before %s; frames: %s", method, c.excerpt())
		}
		switch m := m.(type) {
		case *jsonrpc.Notification:
			if m.Method == method {
				return m
			}
			c.notes = append(c.notes, m)
		case *jsonrpc.Request:
			c.answerRequest(m)
		default:
			c.t.Fatalf("unexpected %#v while waiting for %s", m, method)
		}
	}
}

// drain discards lines until the reader goroutine ends.
func (c *wireClient) drain() {
	for range c.lines {
	}
}

func (c *wireClient) sendRaw(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("writing %q: %v", line, err)
	}
}

// sendLines writes the non-blank lines of input and then last on a
// goroutine of its own, as a client that reads while it writes: the server
// reads no further than its answer to a bad line, which a client that
// only writes does not take, for a while (Session.receiveBad). The
// channel is closed when all is written or the pipe was closed.
func (c *wireClient) sendLines(input string, last jsonrpc.Message) <-chan struct{} {
	c.t.Helper()
	b, err := jsonrpc.EncodeMessage(last)
	if err != nil {
		c.t.Fatal(err)
	}
	lines := append(strings.Split(input, "\n"), string(b))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, line := range lines {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if _, err := io.WriteString(c.w, line+"\n"); err != nil {
				return // the test ended
			}
		}
	}()
	return done
}

func (c *wireClient) send(m jsonrpc.Message) {
	c.t.Helper()
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(string(b))
}

// nextLine returns the next raw line; ok is false at the end of the stream.
func (c *wireClient) nextLine() (string, bool) {
	c.t.Helper()
	select {
	case l, open := <-c.lines:
		if !open || l.err != nil {
			return "", false
		}
		c.frames = append(c.frames, l.text)
		return l.text, true
	case <-time.After(safetyNet):
		c.t.Fatalf("no line from the server within %v; frames so far: %s", safetyNet, c.excerpt())
		return "", false
	}
}

func (c *wireClient) excerpt() string {
	var b strings.Builder
	for _, f := range c.frames {
		if len(f) > 200 {
			f = f[:200] + "…"
		}
		b.WriteString("\n  " + f)
	}
	return b.String()
}

// next returns the next message, failing on a line that does not decode.
func (c *wireClient) next() (jsonrpc.Message, bool) {
	c.t.Helper()
	line, ok := c.nextLine()
	if !ok {
		return nil, false
	}
	m, err := jsonrpc.DecodeMessage([]byte(line))
	if err != nil {
		c.t.Fatalf("server sent an invalid line: %v", err)
	}
	return m, true
}

func (c *wireClient) request(method string, params any) jsonrpc.ID {
	c.t.Helper()
	c.nextID++
	id := jsonrpc.Int64ID(c.nextID)
	req, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(req)
	return id
}

func (c *wireClient) notify(method string, params any) {
	c.t.Helper()
	n, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(n)
}

// await reads until the response to id, collecting notifications and
// answering server requests on the way.
func (c *wireClient) await(id jsonrpc.ID) *jsonrpc.Response {
	c.t.Helper()
	for {
		m, ok := c.next()
		if !ok {
			c.t.Fatalf("stream ended before the response to %s; frames: %s", id, c.excerpt())
		}
		switch m := m.(type) {
		case *jsonrpc.Response:
			if m.ID == id {
				return m
			}
			c.t.Fatalf("unexpected response to %s while waiting for %s", m.ID, id)
		case *jsonrpc.Notification:
			c.notes = append(c.notes, m)
		case *jsonrpc.Request:
			c.answerRequest(m)
		}
	}
}

func (c *wireClient) answerRequest(req *jsonrpc.Request) {
	c.t.Helper()
	var result any
	err := error(jsonrpc.ErrMethodNotFound)
	if c.answer != nil {
		result, err = c.answer(req)
	}
	resp, mErr := jsonrpc.NewResponse(req.ID, result, err)
	if mErr != nil {
		c.t.Fatal(mErr)
	}
	c.send(resp)
}

// call sends a request and returns its result, failing on an error.
func (c *wireClient) call(method string, params any) json.RawMessage {
	c.t.Helper()
	resp := c.await(c.request(method, params))
	if resp.Error != nil {
		c.t.Fatalf("%s: %v", method, resp.Error)
	}
	return resp.Result
}

// callErr sends a request and returns its error, failing on a result.
func (c *wireClient) callErr(method string, params any) *jsonrpc.Error {
	c.t.Helper()
	resp := c.await(c.request(method, params))
	if resp.Error == nil {
		c.t.Fatalf("%s: got result %s, want an error", method, resp.Result)
	}
	return resp.Error
}

func (c *wireClient) initialize(version string) json.RawMessage {
	c.t.Helper()
	res := c.call("initialize", map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{"roots": map[string]bool{"listChanged": true}, "sampling": struct{}{}, "elicitation": struct{}{}},
		"clientInfo":      map[string]string{"name": "wire-test", "version": "0.1"},
	})
	c.notify("notifications/initialized", nil)
	return res
}

// toolCall calls a tool and decodes the result.
func (c *wireClient) toolCall(name string, args any) toolResultWire {
	c.t.Helper()
	raw := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	return decodeToolResult(c.t, raw)
}

type toolResultWire struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func (r toolResultWire) text() string {
	var parts []string
	for _, c := range r.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "")
}

func decodeToolResult(t testing.TB, raw json.RawMessage) toolResultWire {
	t.Helper()
	var r toolResultWire
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("decoding tool result %.200s: %v", raw, err)
	}
	return r
}

func mustJSON(t testing.TB, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decoding %.300s: %v", raw, err)
	}
}

func methodsOf(ns []*jsonrpc.Notification) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Method
	}
	return out
}

var _ = fmt.Sprintf
