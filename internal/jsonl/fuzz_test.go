package jsonl

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

func FuzzJSONLReader(f *testing.F) {
	addReaderSeeds(f)
	f.Fuzz(checkReader)
}

// FuzzJSONLReaderChunked runs the same checks with lines read into small
// chunks (reader_chunks.go) as soon as they pass the read buffer.
func FuzzJSONLReaderChunked(f *testing.F) {
	addReaderSeeds(f)
	useSmallChunks(f)
	f.Fuzz(checkReader)
}

// FuzzJSONLReaderSized runs the same checks with every assembled frame
// taken from the Reader, as GiveUpFrame takes a large one, so that the
// next long line starts in a fresh buffer, short of the last line: it is
// read into a buffer sized for that one (reader_sized.go).
func FuzzJSONLReaderSized(f *testing.F) {
	addReaderSeeds(f)
	useSmallChunks(f)
	f.Fuzz(func(t *testing.T, in []byte, limit uint16) {
		checkReaderTaking(t, in, limit, true)
	})
}

// useSmallChunks makes every line past the read buffer go on in chunks of
// a little more than one read, for the rest of tb.
func useSmallChunks(tb testing.TB) {
	after, use := chunkAfter, chunkUse
	chunkAfter, chunkUse = 0, readBufferSize+904
	tb.Cleanup(func() { chunkAfter, chunkUse = after, use })
}

func addReaderSeeds(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpwire","version":"0.1.0"}}}` + "\n",
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"everything","version":"1.0.0"}}}` + "\r\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}` + "\n\n\n" +
			`[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}},{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"method not found"}}]`,
		"\r\n \t\n{}\r\r\n\rx",
		"",
	}
	// Lines longer than the read buffer, read straight into the frame's
	// buffer, with lines after them that such a read takes in too.
	long := strings.Repeat("x", 9000)
	seeds = append(seeds,
		long+"\n{}\n"+long+"\r\n \n"+long[:5000]+"\n",
		"{}\n"+long+"\r",
		long[:4096]+"\n"+long[:4097]+"\n"+long[:4095]+"\r\n\n")
	for _, s := range seeds {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(16))
		f.Add([]byte(s), uint16(5000))
		f.Add([]byte(s), uint16(8999))
	}
}

func checkReader(t *testing.T, in []byte, limit uint16) { checkReaderTaking(t, in, limit, false) }

// checkReaderTaking reads in from several sources and checks the frames
// against its lines; with take, every frame assembled in the Reader's
// buffer is taken from it, whatever its size.
func checkReaderTaking(t *testing.T, in []byte, limit uint16, take bool) {
	var want [][]byte
	for _, line := range bytes.Split(in, []byte("\n")) {
		line = trimCR(line)
		// Lines over the limit are reported even when blank:
		// the reader does not keep their contents to look.
		if !isBlank(line) || limit > 0 && len(line) > int(limit) {
			want = append(want, line)
		}
	}
	for _, src := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in)), &timeoutReader{r: bytes.NewReader(in)}, &waitingReader{timeoutReader{r: bytes.NewReader(in)}}, &lumpReader{rest: in}} {
		r := NewReader(src)
		r.MaxFrameSize = int(limit)
		var got [][]byte
		for n := 0; ; n++ {
			if n > 3*len(in)+3 {
				t.Fatalf("more results than input bytes")
			}
			frame, err := r.ReadFrame()
			if err == io.EOF {
				break
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				continue // not terminal: read on
			}
			if err != nil {
				tl, ok := err.(*FrameTooLargeError)
				if !ok || limit == 0 || tl.Size <= int64(limit) {
					t.Fatalf("unexpected error %v (limit %d)", err, limit)
				}
				got = append(got, nil) // placeholder for a skipped line
				continue
			}
			if bytes.IndexByte(frame, '\n') >= 0 {
				t.Fatalf("frame %q contains a newline", frame)
			}
			if limit > 0 && len(frame) > int(limit) {
				t.Fatalf("frame of %d bytes passed limit %d", len(frame), limit)
			}
			got = append(got, bytes.Clone(frame))
			if take && r.assembled && !r.resume {
				r.frame, r.assembled = nil, false
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d results, want %d lines", len(got), len(want))
		}
		for i := range want {
			if got[i] == nil {
				if limit == 0 || len(want[i]) <= int(limit) {
					t.Fatalf("line %d (%d bytes) skipped under limit %d", i, len(want[i]), limit)
				}
				continue
			}
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("frame %d = %q, want %q", i, got[i], want[i])
			}
		}
		// Frames plus newlines reproduce the kept input lines.
		var joined, wantJoined []byte
		for i, g := range got {
			if g != nil {
				joined = append(append(joined, g...), '\n')
				wantJoined = append(append(wantJoined, want[i]...), '\n')
			}
		}
		if !bytes.Equal(joined, wantJoined) {
			t.Fatalf("joined frames %q, want %q", joined, wantJoined)
		}
	}
}

func BenchmarkJSONLRead(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"abc","progress":42,"total":100}}` + "\n")
	in := bytes.Repeat(line, 10_000)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	var rd bytes.Reader
	for b.Loop() {
		rd.Reset(in)
		r := NewReader(&rd)
		for {
			if _, err := r.ReadFrame(); err != nil {
				break
			}
		}
	}
}

// BenchmarkJSONLReadLargeLine reads one 16 MiB line, assembled from
// read-ahead buffers, as a large tool result arrives over stdio.
func BenchmarkJSONLReadLargeLine(b *testing.B) {
	in := append(bytes.Repeat([]byte("x"), 16<<20), '\n')
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	var rd bytes.Reader
	for b.Loop() {
		rd.Reset(in)
		if _, err := NewReader(&rd).ReadFrame(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSONLReadLargeLines reads 16 MB lines one after the other,
// 64 KiB a read as from a pipe, each given up to the caller as a decoder
// that keeps the text does: the stdio big-result workload's reading.
func BenchmarkJSONLReadLargeLines(b *testing.B) {
	in := append(bytes.Repeat([]byte("x"), 16_000_000), '\n')
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	var rd bytes.Reader
	r := NewReader(pipeSized{&rd})
	for b.Loop() {
		rd.Reset(in)
		if _, err := r.ReadFrame(); err != nil {
			b.Fatal(err)
		}
		r.GiveUpFrame()
	}
}

// pipeSized reads at most 64 KiB at a time, as a pipe does.
type pipeSized struct{ r io.Reader }

func (p pipeSized) Read(b []byte) (int, error) { return p.r.Read(b[:min(len(b), 64<<10)]) }

// BenchmarkJSONLWriteConcurrent has 16 writers on one Writer, as
// concurrent calls on one stdio connection do; lines queued during a
// write share the next one.
func BenchmarkJSONLWriteConcurrent(b *testing.B) {
	w := NewWriter(io.Discard)
	defer w.Close()
	frame := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello, world"}}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(frame) + 1))
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := w.WriteFrame(context.Background(), frame); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// timeoutReader hands out its input a few bytes at a time, with a read
// deadline passing between every two reads, as a pipe read with a deadline
// can.
type timeoutReader struct {
	r     io.Reader
	calls int
}

func (t *timeoutReader) Read(p []byte) (int, error) {
	t.calls++
	if t.calls%2 == 0 {
		return 0, os.ErrDeadlineExceeded
	}
	return t.r.Read(p[:min(len(p), 1+t.calls%7)])
}

// lumpReader hands out its input in lumps of sizes that vary, larger than
// the read buffer now and then, and its end together with the last lump,
// as an io.Reader may.
type lumpReader struct {
	rest  []byte
	calls int
}

func (l *lumpReader) Read(p []byte) (int, error) {
	l.calls++
	n := copy(p[:min(len(p), 1+l.calls*2999%9001)], l.rest)
	l.rest = l.rest[n:]
	if len(l.rest) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// waitingReader is a timeoutReader that is also a ReadyWaiter, whose waits
// time out now and then, so that the Reader gives back and takes again its
// buffer between frames.
type waitingReader struct {
	timeoutReader
}

func (w *waitingReader) WaitReady() error {
	w.calls++
	if w.calls%3 == 0 {
		return os.ErrDeadlineExceeded
	}
	return nil
}
