package inspect

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// A form's answer that its requestedSchema refuses is not sent: the page
// gets 400 naming each field and what is wrong with it, and the question
// keeps waiting, so that a good answer still goes, and is all the server
// ever gets. The example server's form wants a string "name" (required),
// an integer "count" of at least 0, a number "ratio" and a "color" of
// red, green or blue.
func TestFormAnswerCheckedAgainstItsSchema(t *testing.T) {
	bad := []struct {
		content string
		want    []fieldProblem
	}{
		{`{"count":-5,"color":"purple"}`, []fieldProblem{
			{Field: "name", Problem: "is required"}, {Field: "color", Problem: `must be one of "red", "green", "blue"`}, {Field: "count", Problem: "must be at least 0"}}},
		{`{"name":5}`, []fieldProblem{{Field: "name", Problem: "must be a string, not a number"}}},
		{`{"name":"Ada","count":1.5}`, []fieldProblem{{Field: "count", Problem: "must be an integer, not a number"}}},
		{`{"name":"Ada","ratio":"half"}`, []fieldProblem{{Field: "ratio", Problem: "must be a number, not a string"}}},
	}
	for _, era := range eras {
		t.Run(era.protocol, func(t *testing.T) {
			p := newPageClient(t, Options{Hooks: NewHooks()}, &mcp.ClientOptions{ProtocolVersion: era.protocol})
			next := p.events(t)
			call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"elicit","arguments":{}}`)
			q := nextAsks(t, next, 1)[0]
			for _, b := range bad {
				resp := p.do(t, http.MethodPost, "/api/answer", `{"id":`+jsonInt(q.ID)+`,"action":"accept","content":`+b.content+`}`, nil)
				body, _ := io.ReadAll(resp.Body)
				var got struct {
					Error  string
					Fields []fieldProblem
				}
				if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusBadRequest {
					t.Fatalf("answer %s: %s %s", b.content, resp.Status, body)
				}
				if !sameProblems(got.Fields, b.want) || !strings.Contains(got.Error, "does not fit the form") {
					t.Errorf("answer %s: %s, want the fields %+v", b.content, body, b.want)
				}
				for _, f := range b.want {
					if !strings.Contains(got.Error, `"`+f.Field+`" `+f.Problem) {
						t.Errorf("answer %s: the error %q does not say %q %s", b.content, got.Error, f.Field, f.Problem)
					}
				}
			}
			// Still waiting: the good answer is taken, and it alone reaches
			// the server.
			postJSON[struct{}](t, p, "/api/answer", `{"id":`+jsonInt(q.ID)+`,"action":"accept","content":{"name":"Ada","count":2,"color":"red"}}`)
			rec, _ := waitCall(t, next, call.ID, nil)
			var res mcp.ElicitResult
			if err := json.Unmarshal([]byte(textOf(t, rec)), &res); err != nil || res.Action != "accept" ||
				res.Content["name"] != "Ada" || res.Content["count"] != 2.0 || res.Content["color"] != "red" || len(res.Content) != 3 {
				t.Fatalf("the server got %s (%v)", textOf(t, rec), err)
			}
		})
	}
}

// A declined or cancelled form carries no content to check.
func TestFormDeclineNotChecked(t *testing.T) {
	p := newPageClient(t, Options{Hooks: NewHooks()}, nil)
	next := p.events(t)
	call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"elicit","arguments":{}}`)
	q := nextAsks(t, next, 1)[0]
	postJSON[struct{}](t, p, "/api/answer", `{"id":`+jsonInt(q.ID)+`,"action":"decline","content":{"count":-5}}`)
	rec, _ := waitCall(t, next, call.ID, nil)
	if text := textOf(t, rec); !strings.Contains(text, `"decline"`) || strings.Contains(text, "-5") {
		t.Fatalf("the server got %s", text)
	}
}

// sameProblems compares field problems in any order.
func sameProblems(got, want []fieldProblem) bool {
	if len(got) != len(want) {
		return false
	}
	left := map[fieldProblem]int{}
	for _, f := range got {
		left[f]++
	}
	for _, f := range want {
		if left[f] == 0 {
			return false
		}
		left[f]--
	}
	return true
}
