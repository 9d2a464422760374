package sse

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Writer writes an event stream, for tests and for mcptest servers. Each
// event or comment goes to the underlying writer in one Write call and is
// then flushed when the writer can flush (http.ResponseWriter can), so a
// client sees it at once.
//
// A Writer is safe for concurrent use; events never interleave.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// WriteEvent writes e followed by the blank line that dispatches it. A data
// line is always written, even for empty Data, so that browsers dispatch
// the event too. Data is split into lines at "\n"; Retry is written in
// whole milliseconds. It fails, writing
// nothing, when a field cannot be represented in the format: a CR or LF in
// Type or ID, a NUL in ID, a CR in Data, or a negative Retry.
func (w *Writer) WriteEvent(e Event) error {
	if err := validate(e); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf[:0]
	if e.Type != "" {
		b = appendField(b, "event", e.Type)
	}
	if e.HasID {
		b = appendField(b, "id", e.ID)
	}
	if e.HasRetry {
		b = append(b, "retry: "...)
		b = strconv.AppendInt(b, e.Retry.Milliseconds(), 10)
		b = append(b, '\n')
	}
	data := e.Data
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			b = appendData(b, data)
			break
		}
		b = appendData(b, data[:i])
		data = data[i+1:]
	}
	b = append(b, '\n')
	w.buf = b
	return w.flush(b)
}

// WriteComment writes a comment line, which readers ignore; servers send
// them as keep-alives. A multi-line text becomes several comment lines.
func (w *Writer) WriteComment(text string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf[:0]
	for _, line := range splitLines(text) {
		b = append(b, ':')
		if line != "" {
			b = append(b, ' ')
			b = append(b, line...)
		}
		b = append(b, '\n')
	}
	w.buf = b
	return w.flush(b)
}

func (w *Writer) flush(b []byte) error {
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	switch f := w.w.(type) {
	case interface{ FlushError() error }:
		return f.FlushError()
	case http.Flusher:
		f.Flush()
	}
	return nil
}

// appendField writes "name: value\n", or "name:\n" for an empty value. The
// single space is always stripped again by readers, so a value that starts
// with a space survives.
func appendField(b []byte, name, value string) []byte {
	b = append(b, name...)
	b = append(b, ':')
	if value != "" {
		b = append(b, ' ')
		b = append(b, value...)
	}
	return append(b, '\n')
}

func appendData(b, line []byte) []byte {
	b = append(b, "data:"...)
	if len(line) > 0 {
		b = append(b, ' ')
		b = append(b, line...)
	}
	return append(b, '\n')
}

func validate(e Event) error {
	switch {
	case strings.ContainsAny(e.Type, "\r\n"):
		return errors.New("sse: event type contains a line break")
	case e.HasID && strings.ContainsAny(e.ID, "\r\n\x00"):
		return errors.New("sse: event id contains a line break or NUL")
	case bytes.IndexByte(e.Data, '\r') >= 0:
		return errors.New("sse: event data contains a carriage return, which the format cannot carry")
	case e.HasRetry && e.Retry < 0:
		return errors.New("sse: negative retry delay")
	}
	return nil
}

func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}
