package canned

import (
	"bufio"
	"errors"
	"io"
)

// ServeStdio answers JSON lines from r on w with rsp until r ends.
// Replies are buffered and flushed whenever no further input is already
// waiting, so a burst of requests costs one write. A notify call runs on
// a goroutine of its own while requests keep being answered.
func ServeStdio(rsp *Responder, r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 256<<10)
	out := &lockedWriter{bw: bufio.NewWriterSize(w, 256<<10)}
	bw := out.bw
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			if err == io.EOF {
				out.mu.Lock()
				defer out.mu.Unlock()
				return bw.Flush()
			}
			return err
		}
		if len(line) > 1 {
			rep := rsp.Answer(line)
			switch {
			case rep.notify != nil:
				// The client sees a failed write as the end of the stream.
				go func() { _ = rsp.notify(out, rep.notify, rep) }()
			case !rep.NoReply:
				out.mu.Lock()
				err := rep.writeParts(bw)
				if err == nil {
					err = bw.WriteByte('\n')
				}
				out.mu.Unlock()
				if err != nil {
					return err
				}
			}
		}
		if br.Buffered() == 0 {
			out.mu.Lock()
			err := bw.Flush()
			out.mu.Unlock()
			if err != nil {
				return err
			}
		}
	}
}
