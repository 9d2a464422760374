package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/mcpwire/mcpwire/manager"
)

// Over several configured servers, --json is still one JSON document. As
// "mcpwire tools" does, each entry names its server beside the server's
// own object: a listing merges the servers' lists, {"resources":
// [{"server": "a", "resource": {...}}, ...]}, and a command about the
// server itself lists them, {"servers": [{"server": "a", "info": {...}}]}.

// jsonDocs collects each server's document and merges them.
type jsonDocs struct {
	// lists are the list members of one server's document, each with the
	// member name of one entry in the merged lists ("resources" ->
	// "resource"); when empty, whole documents go under "servers", each
	// as the member named whole.
	lists [][2]string
	whole string

	docs []serverDoc
}

// serverDoc is one server's --json document.
type serverDoc struct {
	server string
	doc    json.RawMessage
}

// add keeps server's document.
func (d *jsonDocs) add(server string, doc []byte) {
	d.docs = append(d.docs, serverDoc{server, json.RawMessage(doc)})
}

// write prints the merged document, the servers in their configured
// order (they answer in any order).
func (d *jsonDocs) write(w io.Writer, servers []manager.ServerStatus) error {
	order := func(name string) int {
		return slices.IndexFunc(servers, func(st manager.ServerStatus) bool { return st.Name == name })
	}
	slices.SortStableFunc(d.docs, func(a, b serverDoc) int { return order(a.server) - order(b.server) })
	if len(d.lists) == 0 {
		entries := []serverEntry{}
		for _, sd := range d.docs {
			entries = append(entries, serverEntry{sd.server, d.whole, sd.doc})
		}
		return WriteJSON(w, struct {
			Servers []serverEntry `json:"servers"`
		}{entries})
	}
	merged := make(orderedObject, len(d.lists))
	for i, l := range d.lists {
		merged[i].key = l[0]
		merged[i].entries = []serverEntry{}
		for _, sd := range d.docs {
			var lists map[string][]json.RawMessage
			if err := json.Unmarshal(sd.doc, &lists); err != nil {
				return fmt.Errorf("merging the JSON of server %q: %w", sd.server, err)
			}
			for _, item := range lists[l[0]] {
				merged[i].entries = append(merged[i].entries, serverEntry{sd.server, l[1], item})
			}
		}
	}
	return WriteJSON(w, merged)
}

// serverEntry is {"server": NAME, KEY: VALUE}.
type serverEntry struct {
	server, key string
	value       json.RawMessage
}

func (e serverEntry) MarshalJSON() ([]byte, error) {
	server, _ := json.Marshal(e.server)
	key, _ := json.Marshal(e.key)
	return fmt.Appendf(nil, `{"server":%s,%s:%s}`, server, key, e.value), nil
}

// orderedObject is a JSON object of lists, its members in this order.
type orderedObject []struct {
	key     string
	entries []serverEntry
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		key, _ := json.Marshal(m.key)
		list, err := json.Marshal(m.entries)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, key...), ':'), list...)
	}
	return append(b, '}'), nil
}
