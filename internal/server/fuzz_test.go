package server

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// FuzzServerInput feeds arbitrary client lines to an initialized session
// and checks that the server neither panics nor stops answering.
func FuzzServerInput(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"b2Zmc2V0OjI"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"mcptest://item/{id}"}}`,
		`{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"summarize","arguments":{"topic":1}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"style","value":"b"}}}`,
		`{"jsonrpc":"2.0","id":11,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nope"}}`,
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`[{"jsonrpc":"2.0","id":12,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]`,
		`{"jsonrpc":"2.0","id":13,"method":"initialize","params":{"protocolVersion":7}}`,
		`not json`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		c, _ := pipeClient(t, NewDefault(&Options{PageSize: 2}))
		c.initialize(LatestProtocolVersion)
		pingID := jsonrpc.StringID("fuzz-ping-" + t.Name())
		sent := c.sendLines(input, &jsonrpc.Request{ID: pingID, Method: "ping"})
		for {
			line, ok := c.nextLine()
			if !ok {
				t.Fatalf("stream ended before the ping was answered; frames: %s", c.excerpt())
			}
			m, err := jsonrpc.DecodeMessage([]byte(line))
			if err != nil {
				t.Fatalf("server wrote an invalid line %q: %v", line, err)
			}
			switch m := m.(type) {
			case *jsonrpc.Response:
				if m.ID == pingID {
					<-sent
					return
				}
			case *jsonrpc.Request:
				c.answerRequest(m)
			}
		}
	})
}

func FuzzParseFaults(f *testing.F) {
	for _, seed := range []string{"crash", "never-answer:tools/list*", "flood-stderr:ping=3KiB", "huge-notification=1MiB,crash:x", "=", ":*", "flood-stderr=99999999999MiB"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, list string) {
		faults, err := ParseFaults(list)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mcptest: fault") {
				t.Errorf("error %q does not say it is about a fault", err)
			}
			return
		}
		for _, f := range faults {
			again, err := ParseFault(f.String())
			if err != nil || again != f {
				t.Errorf("%+v does not survive String and ParseFault: %+v, %v", f, again, err)
			}
		}
	})
}
