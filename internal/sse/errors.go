package sse

import (
	"errors"
	"fmt"
)

// ErrEventTooLarge is wrapped by the *FormatError returned when an event or
// a line exceeds the reader's maximum size.
var ErrEventTooLarge = errors.New("sse: event exceeds the maximum size")

// FormatError reports event-stream input the reader refuses. It is
// terminal: the reader cannot resynchronise after it.
type FormatError struct {
	// Line is the 1-based number of the line where the problem was found.
	Line int64
	// Reason says what is wrong.
	Reason string
	// Err is a sentinel such as ErrEventTooLarge, if any.
	Err error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("sse: line %d: %s", e.Line, e.Reason)
}

func (e *FormatError) Unwrap() error { return e.Err }
