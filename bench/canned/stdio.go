package canned

import (
	"bufio"
	"errors"
	"io"
)

// ServeStdio answers JSON lines from r on w until r ends. Replies are
// buffered and flushed whenever no further input is already waiting, so a
// burst of requests costs one write.
func ServeStdio(r io.Reader, w io.Writer) error {
	rsp := NewResponder()
	br := bufio.NewReaderSize(r, 256<<10)
	bw := bufio.NewWriterSize(w, 256<<10)
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
				return bw.Flush()
			}
			return err
		}
		if len(line) > 1 {
			rep := rsp.Answer(line)
			if !rep.NoReply {
				if err := rep.writeParts(bw); err != nil {
					return err
				}
				if err := bw.WriteByte('\n'); err != nil {
					return err
				}
			}
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}
