package mcp

import (
	"math"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// A page of 1,000 tools holds 2,000 to 3,000 short strings (names,
// titles, descriptions); one allocation each was most of a listing's
// allocations and a good part of its collector's work. stringArena lets
// the page decoder give them one allocation between them: it notes where
// each plain string lies in the page, and once the page is decoded copies
// them all into one string and hands out parts of it. The parts keep the
// whole arena alive, which is the page's strings only, never its schemas.
// A checked page, the client's own, needs no arena: its strings are made
// over the page (toolText).

// toolString says which string of a tool a span is for.
type toolString uint8

const (
	toolName toolString = iota
	toolTitle
	toolDescription
)

// stringSpan is a plain string (no escapes, valid UTF-8) of the page:
// its content is page[start:end]. 32 bits each keep a page's spans small;
// a page of 4 GiB or more gets no arena.
type stringSpan struct {
	tool, start, end uint32
	field            toolString
}

type stringArena struct {
	spans []stringSpan
	size  int
}

// toolText reads the string value that comes next, for field of tool
// index tool. A plain one (no escapes, valid UTF-8) is, on a checked page
// (the client's own bytes, which nothing writes to afterwards), a string
// over the page itself: the tool's raw schemas keep the page alive anyway,
// so the string costs nothing. On a page the caller may reuse it is noted
// in a for assign, and "" stands in for it until then. Any other string is
// decoded on its own.
func (d *scanner) toolText(a *stringArena, tool int, field toolString) (string, bool) {
	start, end, ok := d.plainSpan()
	switch {
	case !ok:
		return d.stringValue()
	case start == end:
		return "", true
	case d.owned:
		return unsafe.String(&d.b[start], end-start), true
	}
	a.spans = append(a.spans, stringSpan{tool: uint32(tool), field: field, start: uint32(start), end: uint32(end)})
	a.size += end - start
	return "", true
}

// plainSpan consumes the string value that comes next if it is plain:
// its content is d.b[start:end]. ok false means it is not (or is not a
// string at all), and nothing was consumed.
func (d *scanner) plainSpan() (start, end int, ok bool) {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '"' || len(d.b) > math.MaxUint32 {
		return 0, 0, false
	}
	start = d.i + 1
	// It ends at a quote; an escape or a control character sends it the
	// other way.
	end, ascii := jsonscan.PlainRunASCII(d.b, start)
	if end >= len(d.b) || d.b[end] != '"' || !ascii && !utf8.Valid(d.b[start:end]) {
		return 0, 0, false
	}
	d.i = end + 1
	return start, end, true
}

// assign copies the noted strings into one and sets each tool's field to
// its part.
func (a *stringArena) assign(page []byte, tools []Tool) {
	if len(a.spans) == 0 {
		return
	}
	var b strings.Builder
	b.Grow(a.size)
	for _, s := range a.spans {
		b.Write(page[s.start:s.end])
	}
	all, at := b.String(), 0
	for _, s := range a.spans {
		n := int(s.end - s.start)
		v := all[at : at+n]
		at += n
		t := &tools[s.tool]
		switch s.field {
		case toolName:
			t.Name = v
		case toolTitle:
			t.Title = v
		case toolDescription:
			t.Description = v
		}
	}
}
