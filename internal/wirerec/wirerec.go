// Package wirerec is the format of wire recordings: one JSON object a line,
// each a JSON-RPC message with when it passed, which way and over which
// transport. transport writes recordings; mcptest reads them back to
// replay a session. Kept apart so that neither imports the other.
package wirerec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Direction says which way a message went, seen from the client.
type Direction string

// The directions.
const (
	Send    Direction = "send"    // from the client to the server
	Receive Direction = "receive" // from the server to the client
)

// Entry is one line of a recording.
type Entry struct {
	Time      time.Time       `json:"time"`
	Direction Direction       `json:"direction"`
	Transport string          `json:"transport"`
	Message   json.RawMessage `json:"message"`
}

// MaxLineSize bounds one line of a recording that Decode accepts.
const MaxLineSize = 256 << 20

// AppendLine appends e as one line, with its newline.
func AppendLine(b []byte, e Entry) ([]byte, error) {
	line, err := json.Marshal(e)
	if err != nil {
		return b, fmt.Errorf("wirerec: %w", err)
	}
	return append(append(b, line...), '\n'), nil
}

// Decode reads a whole recording. Each line must be an Entry with a known
// direction and a JSON-RPC message; blank lines are skipped. Errors name
// the line.
func Decode(r io.Reader) ([]Entry, error) {
	br := bufio.NewReader(r)
	var out []Entry
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			e, derr := decodeLine(line)
			if derr != nil {
				return nil, fmt.Errorf("wirerec: line %d: %w", n, derr)
			}
			out = append(out, e)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("wirerec: line %d: %w", n, err)
		}
	}
}

// readLine reads one line without its newline, refusing lines longer
// than MaxLineSize.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLineSize {
			return nil, fmt.Errorf("line longer than %d bytes", MaxLineSize)
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

func decodeLine(line []byte) (Entry, error) {
	var e Entry
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Entry{}, fmt.Errorf("not a recording entry: %w", err)
	}
	if dec.More() {
		return Entry{}, errors.New("more than one JSON value on the line")
	}
	if e.Direction != Send && e.Direction != Receive {
		return Entry{}, fmt.Errorf("direction %q is neither %q nor %q", clip(string(e.Direction)), Send, Receive)
	}
	if len(e.Message) == 0 {
		return Entry{}, errors.New("no message")
	}
	if _, err := jsonrpc.DecodeMessage(e.Message); err != nil {
		return Entry{}, fmt.Errorf("message: %w", err)
	}
	return e, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
