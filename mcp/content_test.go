package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Blocks as servers send them, one per kind.
var contentSamples = map[string]string{
	"text":          `{"type":"text","text":"hello","annotations":{"audience":["user","assistant"],"priority":0.5,"lastModified":"2025-01-12T15:00:58Z"}}`,
	"empty text":    `{"type":"text","text":""}`,
	"image":         `{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}`,
	"audio":         `{"type":"audio","data":"UklGRg==","mimeType":"audio/wav","_meta":{"x":1}}`,
	"resource_link": `{"type":"resource_link","uri":"file:///a.txt","name":"a.txt","title":"A","description":"d","mimeType":"text/plain","size":12,"icons":[{"src":"data:image/png;base64,AA==","sizes":["16x16"]}]}`,
	"resource text": `{"type":"resource","resource":{"uri":"test://static/1","mimeType":"text/plain","text":"body"}}`,
	"resource blob": `{"type":"resource","resource":{"uri":"test://static/2","blob":"AAEC"}}`,
	"tool_use":      `{"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}}`,
	"tool_result":   `{"type":"tool_result","toolUseId":"call_1","content":[{"type":"text","text":"sunny"}],"structuredContent":{"t":21}}`,
}

func TestContentDecodesEveryKind(t *testing.T) {
	one := int64(12)
	prio := 0.5
	body := "body"
	want := map[string]Content{
		"text": {Type: "text", Text: "hello", Annotations: &Annotations{
			Audience: []Role{RoleUser, RoleAssistant}, Priority: &prio, LastModified: "2025-01-12T15:00:58Z"}},
		"empty text": {Type: "text"},
		"image":      {Type: "image", Data: "iVBORw0KGgo=", MimeType: "image/png"},
		"audio":      {Type: "audio", Data: "UklGRg==", MimeType: "audio/wav", Meta: map[string]any{"x": 1.0}},
		"resource_link": {Type: "resource_link", URI: "file:///a.txt", Name: "a.txt", Title: "A", Description: "d",
			MimeType: "text/plain", Size: &one, Icons: []Icon{{Src: "data:image/png;base64,AA==", Sizes: []string{"16x16"}}}},
		"resource text": {Type: "resource", Resource: &ResourceContents{URI: "test://static/1", MimeType: "text/plain", Text: &body}},
		"resource blob": {Type: "resource", Resource: &ResourceContents{URI: "test://static/2", Blob: "AAEC"}},
		"tool_use":      {Type: "tool_use", ID: "call_1", Name: "get_weather", Input: json.RawMessage(`{"city":"Paris"}`)},
		"tool_result": {Type: "tool_result", ToolUseID: "call_1", Content: []Content{{Type: "text", Text: "sunny"}},
			StructuredContent: json.RawMessage(`{"t":21}`)},
	}
	for name, raw := range contentSamples {
		t.Run(name, func(t *testing.T) {
			var got Content
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want[name]) {
				t.Fatalf("decoded\n%#v\nwant\n%#v", got, want[name])
			}
			if !got.IsKnown() {
				t.Error("IsKnown() = false")
			}
			// Encoding gives the same JSON back (same members, same values).
			enc, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, enc, []byte(raw))
		})
	}
}

func TestContentKeepsUnknownKinds(t *testing.T) {
	for _, raw := range []string{
		`{"type":"hologram","frames":[1,2,3],"text":{"not":"a string"}}`,
		`{"type":"video","uri":"file:///v.mp4","size":"big"}`,
		`{"type":"3d","data":"x"}`,
	} {
		var c Content
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if c.IsKnown() || c.Raw == nil {
			t.Fatalf("%s: decoded as known %+v", raw, c)
		}
		enc, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if string(enc) != raw {
			t.Errorf("round trip = %s, want %s", enc, raw)
		}
	}
	// A known kind with a foreign member whose value clashes with another
	// kind's type still decodes; the foreign member is dropped.
	var c Content
	if err := json.Unmarshal([]byte(`{"type":"text","text":"hi","size":"big","content":7}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.Type != ContentText || c.Text != "hi" || c.Raw != nil {
		t.Errorf("text with foreign members = %+v", c)
	}
	// Inside a result, an unknown block sits between known ones.
	var res CallToolResult
	err := json.Unmarshal([]byte(`{"content":[{"type":"text","text":"a"},{"type":"sparkle","n":1},{"type":"text","text":"b"}]}`), &res)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 3 || res.Content[1].Type != "sparkle" || res.Content[2].Text != "b" {
		t.Errorf("content = %+v", res.Content)
	}
}

func TestContentRejectsMalformedKnownKinds(t *testing.T) {
	cases := map[string]string{
		`{"text":"no type"}`:       `content block has no "type"`,
		`{"type":""}`:              `content block has no "type"`,
		`{"type":7}`:               `mcp: content block: json: cannot unmarshal number`,
		`"text"`:                   `content block is a string, not a JSON object`,
		`null`:                     `content block is null`,
		`{"type":"text"}`:          `text content block without "text"`,
		`{"type":"text","text":5}`: `mcp: text content block: json: cannot unmarshal number`,
		`{"type":"image","mimeType":"image/png"}`:                            `image content block without "data"`,
		`{"type":"audio","data":"AA=="}`:                                     `audio content block without "mimeType"`,
		`{"type":"resource_link","name":"x"}`:                                `resource_link content block without "uri"`,
		`{"type":"resource_link","uri":"file:///x"}`:                         `resource_link content block without "name"`,
		`{"type":"resource"}`:                                                `resource content block without "resource"`,
		`{"type":"resource","resource":{"text":"x"}}`:                        `resource contents without "uri"`,
		`{"type":"resource","resource":{"uri":"a:b"}}`:                       `resource contents "a:b" have neither "text" nor "blob"`,
		`{"type":"resource","resource":{"uri":"a:b","text":"","blob":""}}`:   `have both "text" and "blob"`,
		`{"type":"resource","resource":[]}`:                                  `resource contents are an array`,
		`{"type":"tool_use","name":"f","input":{}}`:                          `tool_use content block without "id"`,
		`{"type":"tool_use","id":"1","name":"f","input":[1]}`:                `input is an array, not a JSON object`,
		`{"type":"tool_result","content":[]}`:                                `tool_result content block without "toolUseId"`,
		`{"type":"tool_result","toolUseId":"1"}`:                             `tool_result content block without "content"`,
		`{"type":"tool_result","toolUseId":"1","content":[{"type":"text"}]}`: `text content block without "text"`,
		`{"type":"resource_link","uri":"u","name":"n","size":1.5}`:           `mcp: resource_link content block: json: cannot unmarshal number 1.5`,
	}
	for raw, want := range cases {
		var c Content
		err := json.Unmarshal([]byte(raw), &c)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decoding %s: error = %v, want one containing %q", raw, err, want)
		}
	}
}

func TestContentEncodingErrors(t *testing.T) {
	for _, c := range []Content{{}, {Type: "new-kind"}, {Type: ContentResource}} {
		if _, err := json.Marshal(c); err == nil {
			t.Errorf("encoding %+v succeeded", c)
		}
	}
}

func TestContentHelpers(t *testing.T) {
	img := ImageContent([]byte{1, 2, 3}, "image/png")
	if img.Type != ContentImage || img.Data != "AQID" {
		t.Errorf("ImageContent = %+v", img)
	}
	if b, err := img.DecodeData(); err != nil || !reflect.DeepEqual(b, []byte{1, 2, 3}) {
		t.Errorf("DecodeData = %v, %v", b, err)
	}
	bad := Content{Type: ContentAudio, Data: "%%%"}
	if _, err := bad.DecodeData(); err == nil || !strings.Contains(err.Error(), "audio content: data is not valid base64") {
		t.Errorf("DecodeData of bad data: %v", err)
	}
	if a := AudioContent([]byte("x"), "audio/wav"); a.Type != ContentAudio || a.Data != "eA==" {
		t.Errorf("AudioContent = %+v", a)
	}
	if tc := TextContent("hi"); tc.Type != ContentText || tc.Text != "hi" {
		t.Errorf("TextContent = %+v", tc)
	}
	rc := ResourceContents{URI: "x:y", Blob: "AAEC"}
	if b, err := rc.DecodeBlob(); err != nil || !reflect.DeepEqual(b, []byte{0, 1, 2}) || rc.IsText() {
		t.Errorf("DecodeBlob = %v, %v", b, err)
	}
	rc.Blob = "!"
	if _, err := rc.DecodeBlob(); err == nil || !strings.Contains(err.Error(), `resource "x:y"`) {
		t.Errorf("DecodeBlob of bad blob: %v", err)
	}
	// An empty blob stays a blob, an empty text stays a text.
	enc, _ := json.Marshal(ResourceContents{URI: "x:y"})
	assertSameJSON(t, enc, []byte(`{"uri":"x:y","blob":""}`))
	empty := ""
	enc, _ = json.Marshal(ResourceContents{URI: "x:y", Text: &empty})
	assertSameJSON(t, enc, []byte(`{"uri":"x:y","text":""}`))
}

func TestSamplingContentSingleOrArray(t *testing.T) {
	var one, many SamplingMessage
	if err := json.Unmarshal([]byte(`{"role":"user","content":{"type":"text","text":"hi"}}`), &one); err != nil {
		t.Fatal(err)
	}
	if len(one.Content) != 1 || one.Content[0].Text != "hi" {
		t.Errorf("single = %+v", one)
	}
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"f","input":{}},{"type":"text","text":"x"}]}`), &many); err != nil {
		t.Fatal(err)
	}
	if len(many.Content) != 2 || many.Content[0].Type != ContentToolUse {
		t.Errorf("array = %+v", many)
	}
	for _, bad := range []string{`{"role":"user","content":"hi"}`, `{"role":"user","content":[{"type":"text"}]}`, `{"role":"user","content":{"type":"image"}}`} {
		var m SamplingMessage
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("decoding %s succeeded", bad)
		}
	}
	// One block encodes as an object (every revision reads that), more as an array.
	enc, _ := json.Marshal(SamplingContent{TextContent("a")})
	assertSameJSON(t, enc, []byte(`{"type":"text","text":"a"}`))
	enc, _ = json.Marshal(SamplingContent{TextContent("a"), TextContent("b")})
	assertSameJSON(t, enc, []byte(`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`))
	enc, _ = json.Marshal(SamplingContent(nil))
	assertSameJSON(t, enc, []byte(`[]`))
}

func TestToolDisplayName(t *testing.T) {
	cases := []struct {
		tool Tool
		want string
	}{
		{Tool{Name: "n"}, "n"},
		{Tool{Name: "n", Annotations: &ToolAnnotations{}}, "n"},
		{Tool{Name: "n", Annotations: &ToolAnnotations{Title: "A"}}, "A"},
		{Tool{Name: "n", Title: "T", Annotations: &ToolAnnotations{Title: "A"}}, "T"},
	}
	for _, tc := range cases {
		if got := tc.tool.DisplayName(); got != tc.want {
			t.Errorf("DisplayName(%+v) = %q, want %q", tc.tool, got, tc.want)
		}
	}
}

func TestLoggingLevelSeverity(t *testing.T) {
	if LevelDebug.Severity() != 0 || LevelEmergency.Severity() != 7 || LevelWarning.Severity() <= LevelInfo.Severity() {
		t.Error("levels are not ordered by severity")
	}
	if LoggingLevel("loud").Severity() != -1 {
		t.Error("an unknown level has a severity")
	}
}

// assertSameJSON compares two JSON texts by value.
func assertSameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON %s: %v", got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want invalid JSON %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON = %s, want %s", got, want)
	}
}
