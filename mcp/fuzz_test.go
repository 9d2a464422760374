package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The decoders below read peer input. Whatever they accept must encode,
// and encoding must be stable: decode(encode(v)) encodes to the same bytes.

func FuzzContent(f *testing.F) {
	for _, raw := range contentSamples {
		f.Add([]byte(raw))
	}
	f.Add([]byte(`{"type":"hologram","frames":[1,2]}`))
	f.Add([]byte(`{"type":"tool_result","toolUseId":"1","content":[{"type":"tool_result","toolUseId":"2","content":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Content
		if json.Unmarshal(data, &c) != nil {
			return
		}
		assertStableEncoding(t, c, func() any { return new(Content) })
	})
}

func FuzzCallToolResult(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"{\"temperature\":22.5}"}],"structuredContent":{"temperature":22.5}}`))
	f.Add([]byte(`{"content":[{"type":"text","text":"Tool failed"}],"isError":true,"_meta":{"a":"b"}}`))
	f.Add([]byte(`{"content":[{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"resource","resource":{"uri":"test://static/resource/1","text":"x"}}]}`))
	f.Add([]byte(`{"content":[{"type":"resource_link","uri":"test://static/resource/2","name":"Resource 2","mimeType":"application/octet-stream"}]}`))
	f.Add([]byte(`{"content":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r CallToolResult
		if json.Unmarshal(data, &r) != nil {
			return
		}
		assertStableEncoding(t, r, func() any { return new(CallToolResult) })
	})
}

func FuzzSamplingRequest(f *testing.F) {
	f.Add([]byte(`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":100}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","toolUseId":"1","content":[]}]}],"maxTokens":5,"tools":[{"name":"f","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"auto"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r CreateMessageRequest
		if json.Unmarshal(data, &r) != nil {
			return
		}
		assertStableEncoding(t, r, func() any { return new(CreateMessageRequest) })
	})
}

func assertStableEncoding(t *testing.T, v any, fresh func() any) {
	t.Helper()
	first, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("decoded value does not encode: %v\n%#v", err, v)
	}
	again := fresh()
	if err := json.Unmarshal(first, again); err != nil {
		t.Fatalf("own encoding does not decode: %v\n%s", err, first)
	}
	second, err := json.Marshal(again)
	if err != nil {
		t.Fatalf("re-decoded value does not encode: %v", err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("encoding is not stable:\n%s\n%s", first, second)
	}
}

func FuzzTask(f *testing.F) {
	f.Add([]byte(`{"taskId":"t1","status":"working","statusMessage":"Gathering sources...","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:01Z","ttl":60000,"pollInterval":1000}`))
	f.Add([]byte(`{"taskId":"t2","status":"completed","ttl":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var tk Task
		if json.Unmarshal(data, &tk) != nil {
			return
		}
		tk.Terminal()
		assertStableEncoding(t, tk, func() any { return new(Task) })
	})
}

func FuzzProgressNotification(f *testing.F) {
	f.Add([]byte(`{"progressToken":7,"progress":1,"total":3,"message":"step 1"}`))
	f.Add([]byte(`{"progressToken":"abc","progress":0.5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p ProgressNotification
		if json.Unmarshal(data, &p) != nil {
			return
		}
		assertStableEncoding(t, p, func() any { return new(ProgressNotification) })
	})
}

// A server's requestedSchema never panics ElicitationDefaults, and an
// answer it gives is made of the form's defaults.
func FuzzElicitationDefaults(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"string","default":"x"}},"required":["a"]}`))
	f.Add([]byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":5,"default":1}}}`))
	f.Add([]byte(`{"properties":{"a":{"$ref":"#/$defs/x","default":1}},"$defs":{"x":{"type":"number"}}}`))
	f.Add([]byte(`{"properties":[]}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		got, err := ElicitationDefaults(schema)
		if err != nil {
			return
		}
		prefill, err := FormDefaults(schema)
		if err != nil || len(got) != len(prefill) {
			t.Fatalf("ElicitationDefaults %v beside FormDefaults %v, %v", got, prefill, err)
		}
	})
}
