package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Codex's config.toml is decoded by a TOML library, and its mcp_servers
// table is then written out as the JSON document every other format is
// read from, {"mcp_servers": {...}}, so that one builder checks every
// host's definitions. Each key of that JSON is anchored to its key in the
// TOML, so a Problem names the line and column in config.toml.

// codexDocument decodes data and returns the JSON to parse and the
// positions of its keys in data; false (with a Problem) if data is not
// valid TOML.
func (p *docParser) codexDocument(data []byte) ([]byte, positioner, bool) {
	if bytes.HasPrefix(data, utf8BOM) {
		// Windows editors start a UTF-8 file with a byte order mark, which
		// the TOML library takes for three characters of a key. Blanked,
		// as in JSON files, every offset stays the file's.
		data = append([]byte(strings.Repeat(" ", len(utf8BOM))), data[len(utf8BOM):]...)
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		pr := Problem{File: p.file, Msg: "invalid TOML"}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			pr.Line, pr.Col = de.Position()
			pr.Msg = "invalid TOML: " + strings.TrimPrefix(de.Error(), "toml: ")
		}
		p.problems = append(p.problems, pr)
		return nil, nil, false
	}
	w := &anchoredJSON{at: &anchoredIndex{lines: newLineIndex(data)}, kinds: make(map[int]string)}
	w.keys, w.children = tomlKeys(data)
	w.buf.WriteByte('{')
	if servers, ok := doc["mcp_servers"]; ok {
		w.member([]string{"mcp_servers"}, servers)
	}
	w.buf.WriteByte('}')
	p.kinds = w.kinds
	return w.buf.Bytes(), w.at, true
}

// anchoredJSON writes JSON and records, for each key and value it
// writes, the TOML offset it came from.
type anchoredJSON struct {
	buf      bytes.Buffer
	keys     map[string]int      // TOML key path (joined by keySep) -> offset
	children map[string][]string // TOML table path -> its keys in file order
	at       *anchoredIndex
	kinds    map[int]string // see docParser.kinds
}

const keySep = "\x00"

// member writes "key": value for the last element of path.
func (w *anchoredJSON) member(path []string, v any) {
	if off, ok := w.keys[strings.Join(path, keySep)]; ok {
		w.at.add(w.buf.Len(), off)
	}
	name, _ := json.Marshal(path[len(path)-1])
	w.buf.Write(name)
	w.buf.WriteByte(':')
	w.value(path, v)
}

// value writes v: a table member by member in the order the TOML lists
// them, an array element by element, anything else as encoding/json
// renders it; a value JSON has no kind for as a string, its TOML kind
// noted so that no field takes it for one.
func (w *anchoredJSON) value(path []string, v any) {
	if kind := tomlOnlyKind(v); kind != "" {
		w.kinds[w.buf.Len()] = kind
		b, err := json.Marshal(v) // a date or time as its text
		if err != nil {           // nan, inf
			b, _ = json.Marshal(fmt.Sprint(v))
		}
		w.buf.Write(b)
		return
	}
	if list, ok := v.([]any); ok {
		w.buf.WriteByte('[')
		for i, e := range list {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.value(path, e)
		}
		w.buf.WriteByte(']')
		return
	}
	table, ok := v.(map[string]any)
	if !ok {
		b, _ := json.Marshal(v) // the rest of what TOML decodes to: strings, numbers, booleans
		w.buf.Write(b)
		return
	}
	// The keys in file order: servers load in the order the file lists
	// them, and the output does not depend on map order.
	keys := w.children[strings.Join(path, keySep)]
	complete := len(keys) == len(table)
	for _, k := range keys {
		_, ok := table[k]
		complete = complete && ok
	}
	if !complete { // a table inside an array of tables: paths repeat
		keys = keys[:0:0]
		for k := range table {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	w.buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.member(append(path[:len(path):len(path)], k), table[k])
	}
	w.buf.WriteByte('}')
}

// tomlOnlyKind names the kinds of TOML value that JSON has none for: a
// date or time, which encoding/json would write as a string any string
// field takes, and the floats nan and inf, which it cannot write. ""
// for any other value.
func tomlOnlyKind(v any) string {
	switch v := v.(type) {
	case time.Time, toml.LocalDateTime:
		return "datetime"
	case toml.LocalDate:
		return "date"
	case toml.LocalTime:
		return "time"
	case float64:
		switch {
		case math.IsNaN(v):
			return "nan"
		case math.IsInf(v, 0):
			return "inf"
		}
	}
	return ""
}

// tomlKeys returns the offset of the first appearance of every key path
// in a valid TOML document (table headers, dotted keys, and the keys of
// inline tables), and for every table path its keys in that order.
func tomlKeys(data []byte) (offsets map[string]int, children map[string][]string) {
	offsets = make(map[string]int)
	children = make(map[string][]string)
	record := func(path []string, n *unstable.Node) {
		k := strings.Join(path, keySep)
		if _, ok := offsets[k]; !ok {
			offsets[k] = int(n.Raw.Offset)
			parent := strings.Join(path[:len(path)-1], keySep)
			children[parent] = append(children[parent], path[len(path)-1])
		}
	}
	// keyPath appends the parts of n's key to base, recording each prefix.
	keyPath := func(base []string, n *unstable.Node) []string {
		path := append([]string(nil), base...)
		it := n.Key()
		for it.Next() {
			part := it.Node()
			path = append(path, string(part.Data))
			record(path, part)
		}
		return path
	}
	var inline func(base []string, v *unstable.Node)
	inline = func(base []string, v *unstable.Node) {
		if v == nil || v.Kind != unstable.InlineTable {
			return
		}
		it := v.Children()
		for it.Next() {
			kv := it.Node()
			inline(keyPath(base, kv), kv.Value())
		}
	}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyPath(nil, e)
		case unstable.KeyValue:
			inline(keyPath(table, e), e.Value())
		}
	}
	return offsets, children
}

// anchoredIndex maps offsets in the written JSON to line and column in
// the TOML: an offset takes the position of the last anchor at or before
// it.
type anchoredIndex struct {
	lines   *lineIndex
	jsonOff []int // ascending
	tomlOff []int
}

func (x *anchoredIndex) add(jsonOff, tomlOff int) {
	x.jsonOff = append(x.jsonOff, jsonOff)
	x.tomlOff = append(x.tomlOff, tomlOff)
}

func (x *anchoredIndex) position(off int) (line, col int) {
	i := sort.SearchInts(x.jsonOff, off+1) - 1
	if i < 0 {
		return 1, 1
	}
	return x.lines.position(x.tomlOff[i])
}
