package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// A result the codec left unchecked (decodeUnchecked) is refused exactly
// when encoding/json refuses it; one it decodes is what encoding/json
// makes of it; one it leaves for encoding/json is untouched; and one it
// refuses after writing to it still has its first fault where it had it,
// with the same account of it from encoding/json (what Refuse reports).
func FuzzDecodeUnchecked(f *testing.F) {
	for _, raw := range textResultSamples {
		f.Add([]byte(raw))
	}
	for _, raw := range []string{
		`{"content":[{"type":"text","text":"a\u0041\n"}]}`,
		`{"content":[{"type":"text","text":"a\nb\x"}]}`,
		`{"content":[{"type":"text","text":"a\nb` + "\t" + `"}]}`,
		`{"content":[{"type":"text","text":"a\nb\u00zz"}]}`,
		`{"content":[{"type":"text","text":"ok\n"},{"type":"text","text":"x\nbad\q"}]}`,
		`{"content":[{"type":"text","text":"ok\n"},{"type":"text","text":"x\n` + "\x01" + `"}]}`,
		`{"content":[{"type":"text","text":"x\n"}],"structuredContent":{"a":1}}`,
		`{"content":[{"type":"text","text":"x\n"}],"structuredContent":{"a":}}`,
		`{"content":[{"type":"text","text":"` + "\xff" + `\n"}]}`,
		`{"content":[{"type":"text","text":"x\\"}]}`,
		`{"content":[{"type":"text","text":"x\"}]}`,
		`[1,2`,
	} {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		var got CallToolResult
		done, err := decodeUnchecked(in, &got)
		valid := json.Valid(data)
		switch {
		case err != nil && valid:
			t.Fatalf("%q: refused (%v), but encoding/json takes it", data, err)
		case err == nil && !valid:
			t.Fatalf("%q: taken (done %v), but encoding/json refuses it", data, done)
		case err != nil:
			want := json.Unmarshal(data, new(json.RawMessage))
			if after := json.Unmarshal(in, new(json.RawMessage)); after == nil || after.Error() != want.Error() ||
				after.(*json.SyntaxError).Offset != want.(*json.SyntaxError).Offset {
				t.Fatalf("%q refused, written to as %q: encoding/json says %v, was %v", data, in, after, want)
			}
		case done:
			var want CallToolResult
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%q decoded, encoding/json says %v", data, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q:\nunchecked %#v\nencoding/json %#v", data, got, want)
			}
		case !bytes.Equal(in, data):
			t.Fatalf("%q left for encoding/json, but written to: %q", data, in)
		}
	})
}

// The bench's kind of result, large: escapes every line, \u ones, and a
// fault past the first megabyte.
func TestDecodeUncheckedLargeText(t *testing.T) {
	text := strings.Repeat(`The quick brown fox \u00e9 jumps.\n`, 40000)
	raw := []byte(`{"content":[{"type":"text","text":"` + text + `"}]}`)
	var got CallToolResult
	if done, err := decodeUnchecked(bytes.Clone(raw), &got); !done || err != nil {
		t.Fatalf("done %v, err %v", done, err)
	}
	var want CallToolResult
	if err := json.Unmarshal(raw, &want); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("text of %d bytes, want %d (%v)", len(got.Content[0].Text), len(want.Content[0].Text), err)
	}
	bad := bytes.Replace(raw, []byte(`jumps.\n`), []byte(`jumps.\v`), 39000)
	bad = bytes.Replace(bad, []byte(`jumps.\v`), []byte(`jumps.\n`), 38999)
	if done, err := decodeUnchecked(bad, new(CallToolResult)); done || err == nil {
		t.Fatalf("a \\v escape taken: done %v, err %v", done, err)
	}
}

// Over a stdio-like stream, a large text result comes to CallTool
// unchecked by the codec and is checked as it is decoded: a valid one
// decodes as encoding/json decodes it, and a malformed one fails the
// call as unreadable (jsonrpc.CodeParseError) at once, with the frame
// reported to the ErrorHook as the codec would report it.
func TestCallToolChecksALargeResultItself(t *testing.T) {
	text := strings.Repeat(`a line of text \u00e9\n`, 1<<20/20)
	for _, tc := range []struct {
		name, result string
		valid        bool
	}{
		{"valid", `{"content":[{"type":"text","text":"` + text + `"}]}`, true},
		{"structured", `{"content":[{"type":"text","text":"` + text + `"}],"structuredContent":{"n":1}}`, true},
		{"bad escape", `{"content":[{"type":"text","text":"` + text + `\q"}]}`, false},
		{"control character", `{"content":[{"type":"text","text":"` + text + "\x01" + `"}]}`, false},
		{"bad structured", `{"content":[{"type":"text","text":"` + text + `"}],"structuredContent":{"n":}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, reported, ctx := lateClient(t, tc.result)
			res, err := c.CallTool(ctx, "big", nil, nil)
			if tc.valid {
				var want CallToolResult
				if err != nil || json.Unmarshal([]byte(tc.result), &want) != nil || res.Content[0].Text != want.Content[0].Text {
					t.Fatalf("CallTool: %v", err)
				}
				return
			}
			checkRefusedAsTheCodec(t, err, reported, tc.result)
		})
	}
}

// A tools/list page large enough to be given up by the line stream comes
// unchecked by the codec and is checked by the page decoder as it reads
// it: a valid page lists every tool, and a malformed one fails the
// listing at once as one whose response could not be read, reported as
// the codec reports it.
func TestListToolsChecksALargePageItself(t *testing.T) {
	page := largePage(3000)
	// Under 1 MiB, as the lines the codec checked before, and long
	// enough to fill half of the first long line's buffer, which the
	// stream then gives up (jsonl.Reader.GiveUpFrame).
	if len(page) < 512<<10 || len(page) >= 1<<20 {
		t.Fatalf("the page is %d bytes", len(page))
	}
	for _, tc := range []struct {
		name, result string
		valid        bool
	}{
		{"valid", page, true},
		{"bad schema", strings.Replace(page, `"required":["path"]}}]}`, `"required":["path",]}}]}`, 1), false},
		{"control character", strings.Replace(page, `Tool 399 of`, "Tool 399of", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.result == page && !tc.valid {
				t.Fatal("the fault was not put in")
			}
			c, reported, ctx := lateClient(t, tc.result)
			res, err := c.ListToolsPage(ctx, "")
			if tc.valid {
				if err != nil || len(res.Tools) != 3000 || res.Tools[399].Name != "tool_0399" || string(res.Tools[0].InputSchema) != `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}` {
					t.Fatalf("ListToolsPage: %v", err)
				}
				return
			}
			checkRefusedAsTheCodec(t, err, reported, tc.result)
		})
	}
}

// lateClient is a client over OS pipes, read in turns, whose peer answers
// every request but initialize with result; what its ErrorHook gets goes
// to reported. ctx bounds the test's call: checked by the codec instead,
// a malformed large result would leave the call waiting until then.
func lateClient(t *testing.T, result string) (c *Client, reported chan error, ctx context.Context) {
	t.Helper()
	cs, ss := osPipes(t)
	go benchPeer(ss, json.RawMessage(result))
	reported = make(chan error, 4)
	c, err := NewClient(context.Background(), cs, &ClientOptions{ErrorHook: func(err error) { reported <- err }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c, reported, ctx
}

// checkRefusedAsTheCodec: the call failed as one whose response could not
// be read, and each frame reported (the peer answers the era probe with
// the same result) is reported as the codec reports it.
func checkRefusedAsTheCodec(t *testing.T, err error, reported chan error, result string) {
	t.Helper()
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeParseError {
		t.Fatalf("the call: %v, want a parse error", err)
	}
	if len(reported) == 0 {
		t.Fatal("nothing reported")
	}
	for len(reported) > 0 {
		r := <-reported
		var got *jsonrpc.DecodeError
		if !errors.As(r, &got) || !strings.Contains(got.Excerpt, `"id":`) {
			t.Fatalf("reported %v", r)
		}
		id := got.Excerpt[strings.Index(got.Excerpt, `"id":`)+5:][:1]
		_, codecErr := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":` + result + `}`))
		var want *jsonrpc.DecodeError
		if !errors.As(codecErr, &want) || got.Reason != want.Reason || got.Excerpt != want.Excerpt {
			t.Fatalf("reported %v; the codec says %v", r, codecErr)
		}
	}
}

// osPipes connects a client and a server stream over two OS pipes, which
// the client reads in turns, as it reads a stdio server's output.
func osPipes(t testing.TB) (client, server jsonrpc.Stream) {
	toClient, fromServer, toServer, fromClient := osPipeFiles(t)
	client = transport.NewStream(toClient, fromClient, closers{toClient, fromClient})
	server = transport.NewStream(toServer, fromServer, closers{toServer, fromServer})
	t.Cleanup(func() { server.Close() })
	return client, server
}

// osPipeFiles are the two OS pipes of osPipes: the client reads toClient
// and writes fromClient, the server the other two.
func osPipeFiles(t testing.TB) (toClient, fromServer, toServer, fromClient *os.File) {
	toClient, fromServer, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	toServer, fromClient, err = os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return toClient, fromServer, toServer, fromClient
}

type closers []io.Closer

func (cs closers) Close() error {
	for _, c := range cs {
		c.Close()
	}
	return nil
}

// A peer that writes a member after the result makes the engine's guess of
// where a large result ends wrong: the client finds the result as the
// codec does, and the listing succeeds.
func TestListToolsAfterAWrongGuess(t *testing.T) {
	page := largePage(3000)
	if len(page) < 256<<10 || len(page) >= 1<<20 {
		t.Fatalf("the page is %d bytes: to be given up, it must fill half of the first long line's buffer", len(page))
	}
	toClient, fromServer, toServer, fromClient := osPipeFiles(t)
	defer fromServer.Close()
	defer toServer.Close()
	go func() {
		// Answers each request with a line written by hand.
		sc := bufio.NewScanner(toServer)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line, ok := handAnswer(sc.Bytes(), page, `,"x":{"y":"}"}`)
			if !ok {
				continue
			}
			if _, err := io.WriteString(fromServer, line+"\n"); err != nil {
				return
			}
		}
	}()
	c, err := NewClient(context.Background(), transport.NewStream(toClient, fromClient, closers{toClient, fromClient}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := c.ListToolsPage(ctx, "")
	if err != nil || len(res.Tools) != 3000 || res.Tools[2999].Name != "tool_2999" || string(res.Tools[0].InputSchema) != `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}` {
		t.Fatalf("ListToolsPage: %v", err)
	}
}
