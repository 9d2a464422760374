package mcp

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// A page of 1,000 tools holds 2,000 to 3,000 short strings (names,
// titles, descriptions); one allocation each was most of a listing's
// allocations and a good part of its collector's work. stringArena lets
// the page decoder give them one allocation between them: it notes where
// each plain string lies in the page, and once the page is decoded copies
// them all into one string and hands out parts of it. The parts keep the
// whole arena alive, which is the page's strings only, never its schemas.

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

// spanString notes the string value that comes next, for tool index
// tool, if it is plain; ok false means it is not (the caller decodes it
// on its own) or is not a string at all, and nothing was consumed.
func (d *scanner) spanString(a *stringArena, tool int, field toolString) (ok bool) {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '"' || len(d.b) > math.MaxUint32 {
		return false
	}
	start := d.i + 1
	// It ends at a quote; an escape or a control character sends it the
	// other way.
	end := jsonscan.PlainRun(d.b, start)
	if end >= len(d.b) || d.b[end] != '"' || !utf8.Valid(d.b[start:end]) {
		return false
	}
	d.i = end + 1
	a.spans = append(a.spans, stringSpan{tool: uint32(tool), field: field, start: uint32(start), end: uint32(end)})
	a.size += end - start
	return true
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
