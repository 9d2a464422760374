package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/jsonscan"
	"github.com/mcpwire/mcpwire/internal/seam"
)

// Decoding a tools/call result with encoding/json walks a large text block
// about five times: Unmarshal validates the whole result, skips over each
// content block to hand it to Content.UnmarshalJSON, which validates it
// again, decodes it into a wire struct, and unquotes the text. For the
// common result, text blocks and maybe isError, decodeTextResult does it
// in one strict pass: it accepts exactly what encoding/json accepts for
// that shape and gives up (ok false, nothing assigned) on anything else,
// such as another member, another block type, an escape it does not
// handle or invalid UTF-8, so that the caller falls back to
// encoding/json and gets its exact result or error.

// decodeTextResult decodes raw into res if raw is a result of the common
// shape; ok reports whether it did. With inPlace, raw is the caller's to
// give (see decodeResult): the texts are unescaped where they are and
// become strings over raw, which is written to only once the whole
// result was accepted, so a fallback still reads it as it came.
func decodeTextResult(raw []byte, res *CallToolResult, inPlace bool) (ok bool) {
	return decodeTextResultMeta(raw, res, inPlace, false)
}

// decodeTextResultMeta is decodeTextResult; with skipMeta, a _meta object
// is stepped over and res.Meta left nil, for a caller that takes the raw
// result too (rawCallToolResult) and reads _meta from there: the
// map[string]any is most of what decoding a small result allocates.
// skipMeta is for a raw that the codec checked: nothing else checks _meta.
func decodeTextResultMeta(raw []byte, res *CallToolResult, inPlace, skipMeta bool) (ok bool) {
	d := scanner{b: raw, inPlace: inPlace}
	return d.textResult(res, skipMeta)
}

// textResult is decodeTextResultMeta's work, on the scanner's input.
func (d *scanner) textResult(res *CallToolResult, skipMeta bool) (ok bool) {
	var out CallToolResult
	sawContent, sawIsError, sawType, sawMeta := false, false, false, false
	if !d.consume('{') {
		return false
	}
	if d.consume('}') {
		return false // no content: let encoding/json decide
	}
	for {
		key, ok := d.plainString()
		if !ok || !d.consume(':') {
			return false
		}
		switch key {
		case "content":
			if sawContent {
				return false
			}
			sawContent = true
			if out.Content, ok = d.textBlocks(res.Content); !ok {
				return false
			}
		case "isError":
			if sawIsError {
				return false
			}
			sawIsError = true
			if out.IsError, ok = d.boolean(); !ok {
				return false
			}
		case "resultType":
			// No field takes it: encoding/json skips it. The caller has
			// already told a complete result from an input_required one.
			if sawType {
				return false
			}
			sawType = true
			if _, ok = d.plainString(); !ok {
				return false
			}
		case "_meta":
			// Its own small decoding, exactly encoding/json's (the
			// object's bytes are handed to it whole).
			if sawMeta {
				return false
			}
			sawMeta = true
			if skipMeta {
				if _, ok = d.rawObject(); !ok {
					return false
				}
				break
			}
			// Into a variable of its own: &out.Meta would move out, and
			// so every result, to the heap.
			var meta map[string]any
			obj, ok := d.rawObject()
			if !ok || json.Unmarshal(obj, &meta) != nil {
				return false
			}
			out.Meta = meta
		default:
			return false
		}
		if d.consume(',') {
			continue
		}
		if !d.consume('}') || !d.atEnd() || !sawContent {
			return false
		}
		if !d.fillTexts(out.Content) {
			return false
		}
		*res = out
		return true
	}
}

// scanner reads JSON tokens from b; every method skips leading white
// space and reports failure instead of an error. checked says b is known
// to be valid JSON (see validValue).
type scanner struct {
	b       []byte
	i       int
	checked bool
	// inPlace: texts are noted (first, more) and made into strings over b by
	// fillTexts (see decodeTextResult).
	inPlace bool
	// checking: b was not checked as JSON, and the texts noted are checked
	// as fillTexts unescapes them (see decodeUncheckedText); refused says
	// one was not valid.
	checking, refused bool
	// skim: the texts are checked as text does, but neither kept nor
	// made into strings, and no blocks are made (see rawCallToolResult).
	skim bool
	// owned: b is the caller's to keep (no one writes to it afterwards),
	// so plain strings may be made over it (see toolText). A checked b
	// is owned too.
	owned bool
	// The texts noted: the first (the common result has one block) in a
	// field of its own, so that noting it allocates nothing; the others
	// in more.
	first textSpan
	noted int
	more  []textSpan
}

func (d *scanner) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *scanner) consume(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *scanner) atEnd() bool {
	d.space()
	return d.i == len(d.b)
}

func (d *scanner) boolean() (v, ok bool) {
	d.space()
	rest := d.b[d.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		d.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		d.i += 5
		return false, true
	}
	return false, false
}

// textBlocks reads an array of {"type":"text","text":"..."} objects,
// into spare's array while it has room (see oneBlockResult): the common
// result's one block then costs no allocation of its own. An empty array
// is a new empty slice, as encoding/json makes it.
func (d *scanner) textBlocks(spare []Content) ([]Content, bool) {
	if !d.consume('[') {
		return nil, false
	}
	if d.consume(']') {
		return []Content{}, true
	}
	blocks := spare[:0]
	for {
		if !d.consume('{') {
			return nil, false
		}
		var typ, text string
		sawType, sawText := false, false
		for {
			key, ok := d.plainKey()
			if !ok || !d.consume(':') {
				return nil, false
			}
			switch {
			case string(key) == "type" && !sawType:
				sawType = true
				// Compared in place: the one value allowed needs no
				// string of its own.
				if v, ok := d.plainKey(); !ok || string(v) != "text" {
					return nil, false
				}
				typ = "text"
			case string(key) == "text" && !sawText && d.inPlace:
				sawText = true
				if !d.textSpan(len(blocks)) {
					return nil, false
				}
			case string(key) == "text" && !sawText:
				sawText = true
				if text, ok = d.text(); !ok {
					return nil, false
				}
			default:
				return nil, false
			}
			if d.consume(',') {
				continue
			}
			if !d.consume('}') || !sawType || !sawText {
				return nil, false
			}
			break
		}
		if !d.skim {
			blocks = append(blocks, Content{Type: typ, Text: text})
		}
		if d.consume(',') {
			continue
		}
		if d.consume(']') {
			return blocks, true
		}
		return nil, false
	}
}

// rawObject returns the bytes of the object that comes next, found by
// matching its braces outside strings; it is not validated (the caller
// decodes it, which does).
func (d *scanner) rawObject() ([]byte, bool) {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '{' {
		return nil, false
	}
	start, depth, inString := d.i, 0, false
	for j := d.i; j < len(d.b); j++ {
		c := d.b[j]
		if inString {
			switch c {
			case '\\':
				j++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				d.i = j + 1
				return d.b[start:d.i], true
			}
		}
	}
	return nil, false
}

// plainString reads a string without escapes (member names, the type).
func (d *scanner) plainString() (string, bool) {
	key, ok := d.plainKey()
	if !ok {
		return "", false
	}
	return string(key), true
}

// text reads a string value, unescaping the short escapes. \u escapes,
// control characters and invalid UTF-8 make it give up (encoding/json
// has its own rules for those).
func (d *scanner) text() (string, bool) {
	if !d.consume('"') {
		return "", false
	}
	start := d.i
	// Find the end first: most texts have few escapes, and knowing the
	// length lets the output be allocated once.
	escapes := 0
	end := -1
	for j := d.i; end < 0; {
		j = jsonscan.PlainRun(d.b, j)
		switch {
		case j >= len(d.b):
			return "", false
		case d.b[j] == '"':
			end = j
		case d.b[j] == '\\':
			escapes++
			j += 2
		default: // a control character
			return "", false
		}
	}
	raw := d.b[start:end]
	d.i = end + 1
	if !utf8.Valid(raw) { // escapes are ASCII: raw is valid iff the text is
		return "", false
	}
	if d.skim {
		return "", knownEscapes(raw)
	}
	if escapes == 0 {
		return string(raw), true
	}
	var b strings.Builder
	b.Grow(len(raw) - escapes)
	for len(raw) > 0 {
		k := bytes.IndexByte(raw, '\\')
		if k < 0 {
			b.Write(raw)
			break
		}
		b.Write(raw[:k])
		c := unescaped(raw[k+1])
		if c == 0 {
			return "", false
		}
		b.WriteByte(c)
		raw = raw[k+2:]
	}
	return b.String(), true
}

// knownEscapes reports whether every escape in raw, a string's bytes
// between its quotes, is one that text unescapes.
func knownEscapes(raw []byte) bool {
	for {
		k := bytes.IndexByte(raw, '\\')
		if k < 0 {
			return true
		}
		if unescaped(raw[k+1]) == 0 {
			return false
		}
		raw = raw[k+2:]
	}
}

// decodeResult decodes a call's result into out, taking the one-pass
// route for tools/call results of the common shape and for tools/list
// pages (decodeToolsList). checked says raw is known to be valid JSON and
// is the caller's to give: nobody else holds it, and it is not used after
// (seam.CheckedResults); a text result's strings are then made over it.
func decodeResult(raw []byte, out any, checked bool) error {
	switch out := out.(type) {
	case *CallToolResult:
		if decodeTextResult(raw, out, checked) {
			return nil
		}
	case *ListToolsResult:
		if decodeToolsList(raw, out, checked) {
			return nil
		}
	case *rawCallToolResult:
		return out.decode(raw, checked)
	}
	return json.Unmarshal(raw, out)
}

// decodeUnchecked starts on a result that the codec left unchecked
// (latecheck.Params): a tools/call text result of the common shape is
// checked while its texts are unescaped in place, one pass over a large
// text where the codec's check and the unescaping made two
// (bench/NOTES.md, the seventeenth round); a tools/list page is checked
// by the page decoder as it reads it, which accepts only valid JSON
// (FuzzDecodeToolsList), where the codec's check and the decoder's walk
// made two passes (the twenty-first round). done says it was decoded
// into out. Any other result is checked whole, and then decoded as one
// the codec checked. errNotJSON says raw is not valid JSON.
func decodeUnchecked(raw []byte, out any) (done bool, err error) {
	switch res := out.(type) {
	case *CallToolResult:
		d := scanner{b: raw, inPlace: true, checking: true}
		if d.textResult(res, false) {
			return true, nil
		}
		if d.refused {
			return false, errNotJSON
		}
	case *ListToolsResult:
		// The page is the caller's own, given up to it by the stream:
		// its strings may be made over it, as over a checked page.
		if decodeToolsListOwned(raw, res) {
			return true, nil
		}
	}
	if !jsonscan.Valid(raw) {
		return false, errNotJSON
	}
	return false, nil
}

// errNotJSON: a result left unchecked is not valid JSON.
var errNotJSON = errors.New("the result is not valid JSON")

// rawCallToolResult is the out of a tools/call whose caller asked for the
// raw result too (seam.WithRawToolResult): res is decoded, and so checked,
// as for any caller, but the texts are not unescaped in place, since raw
// is handed on as it came.
type rawCallToolResult struct {
	res    *CallToolResult
	dst    *seam.RawToolResult
	params jsonenc.Roomy // the call's params, made with room (see CallTool)
}

func (r *rawCallToolResult) decode(raw []byte, checked bool) error {
	if r.dst.Skim && checked {
		// The walk of the one-pass decoder, accepting exactly what it
		// accepts, with nothing made: a result that is not an error is
		// passed on as it came (an error's text is read by the caller).
		var res CallToolResult
		d := scanner{b: raw, skim: true}
		if d.textResult(&res, true) && !res.IsError {
			*r.res = res
			r.dst.Bytes, r.dst.Skimmed = raw, true
			return nil
		}
	}
	if !decodeTextResultMeta(raw, r.res, false, checked) {
		if err := json.Unmarshal(raw, r.res); err != nil {
			return err
		}
	}
	if !checked {
		// Not known to be the caller's alone.
		raw = bytes.Clone(raw)
	}
	r.dst.Bytes = raw
	return nil
}
