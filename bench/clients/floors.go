package clients

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/bench/canned"
)

// Pre-encoded requests of the raw floor. The id never changes: the floor
// does not correlate, it only reads one reply line per request.
var (
	rawInitialize  = []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1.0.0"}}}` + "\n")
	rawInitialized = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	rawEcho        = []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello, world"}}}` + "\n")
	rawList        = []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}` + "\n")
)

func rawBig(size int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"big","arguments":{"size":` + strconv.Itoa(size) + `}}}` + "\n")
}

// The stateless era's requests carry their version, capabilities and
// client info in _meta, and there is no handshake: server/discover is the
// first request, as the clients send it.
const rawMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + canned.ModernVersion +
	`","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1.0.0"}}`

var (
	rawDiscover   = []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + rawMeta + `}}` + "\n")
	rawEchoModern = []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + rawMeta + `,"name":"echo","arguments":{"message":"hello, world"}}}` + "\n")
	rawListModern = []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{` + rawMeta + `}}` + "\n")
)

func rawBigModern(size int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{` + rawMeta + `,"name":"big","arguments":{"size":` + strconv.Itoa(size) + `}}}` + "\n")
}

// rawMsg is one pre-encoded request and, for the stateless era's HTTP
// headers, its method and name.
type rawMsg struct {
	line         []byte // with its newline
	method, name string
}

// rawMsgs are a floor's requests in one era.
type rawMsgs struct {
	modern bool
	open   rawMsg // initialize or server/discover
	opened []byte // notifications/initialized; nil in the stateless era
	echo   rawMsg
	list   rawMsg
	big    func(size int) rawMsg
	// bigEnvelope is the length of a big reply less its text.
	bigEnvelope int
}

func rawMsgsFor(modern bool) *rawMsgs {
	m := &rawMsgs{
		modern: modern,
		open:   rawMsg{line: rawInitialize, method: "initialize"},
		opened: rawInitialized,
		echo:   rawMsg{line: rawEcho, method: "tools/call", name: canned.EchoTool},
		list:   rawMsg{line: rawList, method: "tools/list"},
		big:    func(size int) rawMsg { return rawMsg{line: rawBig(size), method: "tools/call", name: canned.BigTool} },
	}
	m.bigEnvelope = bigEnvelopes()[0]
	if modern {
		m.open = rawMsg{line: rawDiscover, method: "server/discover"}
		m.opened = nil
		m.echo.line, m.list.line = rawEchoModern, rawListModern
		m.big = func(size int) rawMsg {
			return rawMsg{line: rawBigModern(size), method: "tools/call", name: canned.BigTool}
		}
		m.bigEnvelope = bigEnvelopes()[1]
	}
	return m
}

// bigEnvelopes are the lengths of a big reply less its text, in the
// legacy and the stateless era, learnt once from the canned server's own
// replies (building a responder costs milliseconds: not per connection).
var bigEnvelopes = sync.OnceValue(func() [2]int {
	var out [2]int
	for i, rsp := range []*canned.Responder{canned.NewResponder(), canned.NewModernResponder()} {
		line := rawBig(1)
		if rsp.Modern() {
			line = rawBigModern(1)
		}
		rep := rsp.Answer(line)
		out[i] = len(rep.AppendFrame(nil)) - 1
	}
	return out
})

// Raw is the floor of the server and the transport: it writes pre-encoded
// requests and reads reply lines (or HTTP bodies) without decoding them.
func Raw() *Client {
	return &Client{
		Name:   "raw",
		Floor:  true,
		HTTP:   true,
		Modern: true,
		Usage: "No client: pre-encoded request lines written to the same canned server, reply lines read and not decoded " +
			"(over HTTP: pre-encoded POST bodies through a net/http client with 64 idle connections per host, bodies read and discarded). " +
			"In the 2026-07-28 era its requests carry the `_meta` and the HTTP headers that era requires, and `server/discover` replaces `initialize`.",
		Connect: func(ctx context.Context, t Target) (Session, error) {
			msgs := rawMsgsFor(t.Modern)
			if t.IsHTTP() {
				return connectRawHTTP(ctx, t.URL, msgs)
			}
			p, err := startPipe(t.Command, t.Args...)
			if err != nil {
				return nil, err
			}
			s := &rawSession{pipe: p, msgs: msgs}
			if err := s.handshake(); err != nil {
				p.Close()
				return nil, err
			}
			return s, nil
		},
	}
}

// Cat is the floor of the pipe alone: the reply bytes the server would
// send are written into cat and read back. It has no HTTP form.
func Cat() *Client {
	return &Client{
		Name:  "cat",
		Floor: true,
		Usage: "No client and no MCP server: the reply lines the canned server would send are written to `cat` and read back (stdio only).",
		Connect: func(ctx context.Context, t Target) (Session, error) {
			if t.IsHTTP() {
				return nil, errors.New("cat has no HTTP form")
			}
			if t.Modern {
				return nil, errors.New("cat has no form for the 2026-07-28 era")
			}
			p, err := startPipe("cat")
			if err != nil {
				return nil, err
			}
			s := &catSession{pipe: p, rsp: canned.NewResponder()}
			// The same bytes as a handshake: the initialize reply.
			if _, err := s.roundTrip(s.reply(rawInitialize)); err != nil {
				p.Close()
				return nil, err
			}
			return s, nil
		},
	}
}

// pipe is a child process with its stdin and stdout.
type pipe struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	buf []byte // a reply line being assembled
}

func startPipe(name string, args ...string) (*pipe, error) {
	cmd := exec.Command(name, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &pipe{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// readLine reads one line; the slice is valid until the next read.
func (p *pipe) readLine() ([]byte, error) {
	line, err := p.out.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	p.buf = append(p.buf[:0], line...)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = p.out.ReadSlice('\n')
		p.buf = append(p.buf, line...)
	}
	return p.buf, err
}

// roundTrip writes msg (from another goroutine when it is larger than a
// pipe buffer, since the peer answers while we write) and reads one line.
func (p *pipe) roundTrip(msg []byte) (int, error) {
	if len(msg) <= 4096 {
		if _, err := p.in.Write(msg); err != nil {
			return 0, err
		}
		line, err := p.readLine()
		return len(line), err
	}
	werr := make(chan error, 1)
	go func() { _, err := p.in.Write(msg); werr <- err }()
	line, err := p.readLine()
	if e := <-werr; e != nil && err == nil {
		err = e
	}
	return len(line), err
}

// pipeline keeps depth copies of msg in flight: one goroutine writes, the
// caller reads one line per message.
func (p *pipe) pipeline(ctx context.Context, msg []byte, total, depth int) error {
	slots := make(chan struct{}, depth)
	werr := make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for range total {
			select {
			case slots <- struct{}{}:
			case <-stop:
				werr <- nil
				return
			}
			if _, err := p.in.Write(msg); err != nil {
				werr <- err
				return
			}
		}
		werr <- nil
	}()
	for range total {
		if _, err := p.readLine(); err != nil {
			return err
		}
		<-slots
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return <-werr
}

func (p *pipe) Close() error {
	p.in.Close()
	return p.cmd.Wait()
}

type rawSession struct {
	pipe *pipe
	msgs *rawMsgs
}

func (s *rawSession) handshake() error {
	if _, err := s.pipe.roundTrip(s.msgs.open.line); err != nil {
		return err
	}
	if s.msgs.opened == nil {
		return nil
	}
	_, err := s.pipe.in.Write(s.msgs.opened)
	return err
}

func (s *rawSession) Echo(ctx context.Context) error {
	n, err := s.pipe.roundTrip(s.msgs.echo.line)
	if err == nil && n < 10 {
		err = fmt.Errorf("short reply of %d bytes", n)
	}
	return err
}

func (s *rawSession) Big(ctx context.Context, size int) (int, error) {
	n, err := s.pipe.roundTrip(s.msgs.big(size).line)
	// The text is the frame (and its newline) less the envelope around it.
	return n - 1 - s.msgs.bigEnvelope, err
}

func (s *rawSession) List(ctx context.Context) (int, error) {
	n, err := s.pipe.roundTrip(s.msgs.list.line)
	if err != nil {
		return 0, err
	}
	if n < canned.ToolCount*100 {
		return 0, fmt.Errorf("tools/list reply of only %d bytes", n)
	}
	return canned.ToolCount, nil
}

func (s *rawSession) Pipeline(ctx context.Context, total, depth int) error {
	return s.pipe.pipeline(ctx, s.msgs.echo.line, total, depth)
}

func (s *rawSession) Close() error { return s.pipe.Close() }

// catSession sends the server's reply bytes through cat.
type catSession struct {
	pipe *pipe
	rsp  *canned.Responder
}

// reply is the frame the canned server sends for the request line req.
func (s *catSession) reply(req []byte) []byte {
	rep := s.rsp.Answer(req)
	return append(rep.AppendFrame(nil), '\n')
}

func (s *catSession) roundTrip(msg []byte) (int, error) { return s.pipe.roundTrip(msg) }

func (s *catSession) Echo(ctx context.Context) error {
	_, err := s.pipe.roundTrip(catEcho)
	return err
}

var catEcho = func() []byte {
	rep := canned.NewResponder().Answer(rawEcho)
	return append(rep.AppendFrame(nil), '\n')
}()

func (s *catSession) Big(ctx context.Context, size int) (int, error) {
	n, err := s.pipe.roundTrip(s.reply(rawBig(size)))
	return n - len(`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":""}]}}`+"\n"), err
}

func (s *catSession) List(ctx context.Context) (int, error) {
	if _, err := s.pipe.roundTrip(catList); err != nil {
		return 0, err
	}
	return canned.ToolCount, nil
}

var catList = func() []byte {
	rep := canned.NewResponder().Answer(rawList)
	return append(rep.AppendFrame(nil), '\n')
}()

func (s *catSession) Pipeline(ctx context.Context, total, depth int) error {
	return s.pipe.pipeline(ctx, catEcho, total, depth)
}

func (s *catSession) Close() error { return s.pipe.Close() }

// rawHTTPSession posts pre-encoded bodies.
type rawHTTPSession struct {
	url     string
	client  *http.Client
	session string
	msgs    *rawMsgs
	bufs    sync.Pool
}

func connectRawHTTP(ctx context.Context, url string, msgs *rawMsgs) (*rawHTTPSession, error) {
	s := &rawHTTPSession{url: url, msgs: msgs, client: &http.Client{Transport: &http.Transport{
		MaxIdleConns: 128, MaxIdleConnsPerHost: 64,
	}}}
	resp, err := s.post(ctx, msgs.open, nil)
	if err != nil {
		return nil, err
	}
	if msgs.opened == nil {
		return s, nil
	}
	s.session = resp.Header.Get("Mcp-Session-Id")
	if _, err := s.post(ctx, rawMsg{line: msgs.opened}, nil); err != nil {
		return nil, err
	}
	return s, nil
}

// Header values the raw floor sends, shared by every POST.
var (
	rawContentType = []string{"application/json"}
	rawAccept      = []string{"application/json, text/event-stream"}
	rawLegacyVer   = []string{"2025-11-25"}
	rawModernVer   = []string{canned.ModernVersion}
)

// post sends m and reads the reply into a pooled buffer; it returns the
// response (its body consumed) and the reply length in n.
func (s *rawHTTPSession) post(ctx context.Context, m rawMsg, n *int) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(m.line))
	if err != nil {
		return nil, err
	}
	h := req.Header
	h["Content-Type"] = rawContentType
	h["Accept"] = rawAccept
	if s.session != "" {
		h["Mcp-Session-Id"] = []string{s.session}
		h["Mcp-Protocol-Version"] = rawLegacyVer
	}
	if s.msgs.modern {
		h["Mcp-Protocol-Version"] = rawModernVer
		h["Mcp-Method"] = []string{m.method}
		if m.name != "" {
			h["Mcp-Name"] = []string{m.name}
		}
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	buf, _ := s.bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	buf.Reset()
	_, err = buf.ReadFrom(resp.Body)
	if n != nil {
		*n = buf.Len()
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			*n -= len("event: message\ndata: \n\n")
		}
	}
	if buf.Cap() <= 1<<20 {
		s.bufs.Put(buf)
	}
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	return resp, nil
}

func (s *rawHTTPSession) Echo(ctx context.Context) error {
	m := s.msgs.echo
	m.line = m.line[:len(m.line)-1]
	_, err := s.post(ctx, m, nil)
	return err
}

func (s *rawHTTPSession) Big(ctx context.Context, size int) (int, error) {
	var n int
	_, err := s.post(ctx, s.msgs.big(size), &n)
	return n - s.msgs.bigEnvelope, err
}

func (s *rawHTTPSession) List(ctx context.Context) (int, error) {
	var n int
	if _, err := s.post(ctx, s.msgs.list, &n); err != nil {
		return 0, err
	}
	return canned.ToolCount, nil
}

func (s *rawHTTPSession) Close() error {
	s.client.CloseIdleConnections()
	return nil
}
