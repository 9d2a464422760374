package jsonl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads frames until a terminal error, collecting per-frame errors.
func readAll(t *testing.T, r *Reader) (frames []string, frameErrs []error, end error) {
	t.Helper()
	for i := 0; ; i++ {
		if i > 1_000_000 {
			t.Fatal("reader never ended")
		}
		f, err := r.ReadFrame()
		if err != nil {
			var tl *FrameTooLargeError
			if errors.As(err, &tl) {
				frameErrs = append(frameErrs, err)
				continue
			}
			return frames, frameErrs, err
		}
		if bytes.IndexByte(f, '\n') >= 0 {
			t.Fatalf("frame %q contains a newline", f)
		}
		frames = append(frames, string(f))
	}
}

func TestReaderSplitsLines(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"one", "{}\n", []string{"{}"}},
		{"no final newline", "{\"a\":1}\n{\"b\":2}", []string{`{"a":1}`, `{"b":2}`}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"only one cr dropped", "a\r\r\n", []string{"a\r"}},
		{"cr at eof", "a\r", []string{"a"}},
		{"blank lines skipped", "\n\r\n \t \na\n\n\nb\n  \n", []string{"a", "b"}},
		{"inner spaces kept", "  x  \n", []string{"  x  "}},
		{"lone cr inside", "a\rb\n", []string{"a\rb"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, src := range map[string]io.Reader{
				"whole":    strings.NewReader(tc.in),
				"bytewise": iotest.OneByteReader(strings.NewReader(tc.in)),
			} {
				frames, ferrs, end := readAll(t, NewReader(src))
				if end != io.EOF {
					t.Fatalf("end = %v, want io.EOF", end)
				}
				if len(ferrs) != 0 {
					t.Fatalf("unexpected frame errors %v", ferrs)
				}
				if !equal(frames, tc.want) {
					t.Fatalf("frames = %q, want %q", frames, tc.want)
				}
			}
		})
	}
}

func TestReaderHugeLine(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 64<<20)
	in := make([]byte, 0, 2*len(big)+16)
	in = append(append(append(in, "small\n"...), big...), '\n')
	in = append(append(in, big[:3<<20]...), "\r\nlast\n"...)
	r := NewReader(bytes.NewReader(in))
	want := [][]byte{[]byte("small"), big, big[:3<<20], []byte("last")}
	for i, w := range want {
		f, err := r.ReadFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(f, w) {
			t.Fatalf("frame %d: got %d bytes, want %d", i, len(f), len(w))
		}
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("after last frame: %v, want io.EOF", err)
	}
}

func TestReaderMaxFrameSizeSkipsAndResyncs(t *testing.T) {
	long := strings.Repeat("y", 200_000) // longer than the read buffer
	in := "ok1\n" + strings.Repeat("z", 11) + "\n" + long + "\r\n" + "0123456789\r\n" + "ok2\n" + long
	for name, src := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(in) },
		"bytewise": func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) },
		"halves":   func() io.Reader { return iotest.HalfReader(strings.NewReader(in)) },
	} {
		t.Run(name, func(t *testing.T) {
			r := NewReader(src())
			r.MaxFrameSize = 10
			frames, ferrs, end := readAll(t, r)
			if end != io.EOF {
				t.Fatalf("end = %v, want io.EOF", end)
			}
			if want := []string{"ok1", "0123456789", "ok2"}; !equal(frames, want) {
				t.Fatalf("frames = %q, want %q", frames, want)
			}
			wantSizes := []int64{11, int64(len(long)), int64(len(long))}
			if len(ferrs) != len(wantSizes) {
				t.Fatalf("frame errors = %v, want %d", ferrs, len(wantSizes))
			}
			for i, err := range ferrs {
				var tl *FrameTooLargeError
				errors.As(err, &tl)
				if tl.Limit != 10 || tl.Size != wantSizes[i] {
					t.Errorf("error %d = %+v, want limit 10 size %d", i, tl, wantSizes[i])
				}
				msg := err.Error()
				if !strings.Contains(msg, "10 bytes") || !strings.Contains(msg, itoa(wantSizes[i])) {
					t.Errorf("error %q does not name the limit and the size", msg)
				}
			}
		})
	}
}

func TestReaderCRAtBufferBoundaryOfSkippedLine(t *testing.T) {
	// The '\r' of a CRLF lands as the last byte of a full read buffer, the
	// '\n' in the next chunk: the reported size must not count the '\r'.
	line := strings.Repeat("a", readBufferSize-1) + "\r"
	r := NewReader(strings.NewReader(line + "\nnext\n"))
	r.MaxFrameSize = 100
	_, err := r.ReadFrame()
	var tl *FrameTooLargeError
	if !errors.As(err, &tl) || tl.Size != readBufferSize-1 {
		t.Fatalf("err = %v, want size %d", err, readBufferSize-1)
	}
	if f, err := r.ReadFrame(); err != nil || string(f) != "next" {
		t.Fatalf("after skip: %q, %v", f, err)
	}
}

func TestReaderLimitAllowsExactSizeWithCR(t *testing.T) {
	r := NewReader(strings.NewReader("12345\r\n123456\n"))
	r.MaxFrameSize = 5
	if f, err := r.ReadFrame(); err != nil || string(f) != "12345" {
		t.Fatalf("got %q, %v", f, err)
	}
	if _, err := r.ReadFrame(); !isFrameTooLarge(err) {
		t.Fatalf("6-byte line: err = %v, want too large", err)
	}
}

func TestReaderErrorIsTerminalAndSticky(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("a\npartial"), iotest.ErrReader(boom)))
	if f, err := r.ReadFrame(); err != nil || string(f) != "a" {
		t.Fatalf("first: %q, %v", f, err)
	}
	for i := 0; i < 2; i++ {
		if _, err := r.ReadFrame(); !errors.Is(err, boom) {
			t.Fatalf("call %d: err = %v, want boom", i, err)
		}
	}
}

func TestReaderReusesItsBuffers(t *testing.T) {
	in := strings.Repeat(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`+"\n", 1000)
	r := NewReader(strings.NewReader(in))
	allocs := testing.AllocsPerRun(500, func() {
		if _, err := r.ReadFrame(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 {
		t.Fatalf("%v allocations reading small lines, want 0", allocs)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// readyProbe is a ReadyWaiter whose WaitReady records whether the Reader
// held a read buffer while it waited.
type readyProbe struct {
	io.Reader
	r           *Reader
	waits       int
	heldABuffer bool
}

func (p *readyProbe) WaitReady() error {
	p.waits++
	if p.r.br != nil {
		p.heldABuffer = true
	}
	return nil
}

// Over a ReadyWaiter, a Reader waits for input without a buffer and gives
// its buffer back between frames, yet reads every frame.
func TestReaderOverReadyWaiterHoldsNoBufferWhileWaiting(t *testing.T) {
	p := &readyProbe{Reader: strings.NewReader("{\"a\":1}\n{\"b\":2}\n" + strings.Repeat("x", 3*readBufferSize) + "\n")}
	r := NewReader(p)
	p.r = r
	var got []string
	for {
		frame, err := r.ReadFrame()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(frame))
	}
	if len(got) != 3 || got[0] != `{"a":1}` || got[1] != `{"b":2}` || len(got[2]) != 3*readBufferSize {
		t.Fatalf("frames %q", got)
	}
	if p.waits == 0 || p.heldABuffer {
		t.Fatalf("%d waits, held a buffer while waiting: %v", p.waits, p.heldABuffer)
	}
}

// A frame assembled in a buffer too large to keep is given up, and stays
// as it was through the reads that follow; a frame in the read buffer,
// or in a buffer the Reader keeps, is not, even right after a large
// blank line.
func TestReaderGivesUpOnlyLargeAssembledFrames(t *testing.T) {
	big := strings.Repeat("x", 2*keepFrameBuffer)
	blank := strings.Repeat(" ", 2*keepFrameBuffer)
	mid := strings.Repeat("m", 3*readBufferSize)
	r := NewReader(strings.NewReader(big + "\nsmall\n" + blank + "\nafter blank\n" + mid + "\n" + big + "\n"))
	var kept [][]byte
	for i, want := range []struct {
		frame  string
		giveUp bool
	}{{big, true}, {"small", false}, {"after blank", false}, {mid, false}, {big, true}} {
		f, err := r.ReadFrame()
		if err != nil || string(f) != want.frame {
			t.Fatalf("frame %d: %d bytes, %v", i, len(f), err)
		}
		if got := r.GiveUpFrame(); got != want.giveUp {
			t.Fatalf("frame %d (%d bytes): GiveUpFrame = %v, want %v", i, len(f), got, want.giveUp)
		}
		if want.giveUp {
			kept = append(kept, f)
		}
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("after the last frame: %v", err)
	}
	for i, f := range kept {
		if string(f) != big {
			t.Fatalf("given-up frame %d changed after later reads", i)
		}
	}
}

// A long line that fills most of its buffer is given up too, and the next
// one gets a buffer of its own, sized for it; a short long line in a
// buffer made for a longer one is not.
func TestReaderGivesUpLongLinesThatFillTheirBuffer(t *testing.T) {
	long := strings.Repeat("l", 100<<10)
	other := strings.Repeat("o", 100<<10)
	mid := strings.Repeat("m", 3*readBufferSize)
	r := NewReader(strings.NewReader(long + "\n" + other + "\n" + mid + "\n"))
	var kept [][]byte
	for i, want := range []struct {
		frame  string
		giveUp bool
	}{{long, true}, {other, true}, {mid, false}} {
		f, err := r.ReadFrame()
		if err != nil || string(f) != want.frame {
			t.Fatalf("frame %d: %d bytes, %v", i, len(f), err)
		}
		if got := r.GiveUpFrame(); got != want.giveUp {
			t.Fatalf("frame %d (%d bytes in a buffer of %d): GiveUpFrame = %v, want %v", i, len(f), cap(f), got, want.giveUp)
		}
		if want.giveUp {
			kept = append(kept, f)
		}
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("after the last frame: %v", err)
	}
	if string(kept[0]) != long || string(kept[1]) != other {
		t.Fatal("a given-up frame changed after later reads")
	}
	if c := cap(kept[1]); c > len(other)*5/4+readBufferSize+2 {
		t.Errorf("the second long line of %d bytes got a buffer of %d", len(other), c)
	}
}

// A line past chunkAfter comes back in a buffer of its exact length (the
// chunks joined once), not in a doubled one; over the limit it is refused
// and the next line read whole.
func TestReaderJoinsLongLinesExactly(t *testing.T) {
	big := strings.Repeat("c", chunkAfter+3*chunkSize+12345)
	r := NewReader(iotest.HalfReader(strings.NewReader(big + "\r\nnext\n" + big + "x\n" + big + "\n")))
	f, err := r.ReadFrame()
	if err != nil || string(f) != big {
		t.Fatalf("frame 0: %d bytes, %v", len(f), err)
	}
	if cap(f) != len(big)+2 {
		t.Errorf("a line of %d bytes (with CRLF) in a buffer of %d", len(big)+2, cap(f))
	}
	if f, err := r.ReadFrame(); err != nil || string(f) != "next" {
		t.Fatalf("frame 1: %q, %v", f, err)
	}
	r.MaxFrameSize = len(big)
	var tl *FrameTooLargeError
	if _, err := r.ReadFrame(); !errors.As(err, &tl) || tl.Size != int64(len(big)+1) {
		t.Fatalf("over the limit: %v", err)
	}
	if f, err := r.ReadFrame(); err != nil || string(f) != big {
		t.Fatalf("after the refused line: %d bytes, %v", len(f), err)
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
}

// A long line after a longer one is read into one buffer sized for that
// one, not into chunks joined at its end; a line much shorter than its
// buffer is copied into one of its own size.
func TestReaderSizesLongLinesFromTheLast(t *testing.T) {
	big := strings.Repeat("s", chunkAfter+5*chunkSize+321)
	short := big[:chunkAfter+chunkSize]
	r := NewReader(iotest.HalfReader(strings.NewReader(big + "\n" + big + "\n" + short + "\n" + big + "\n")))
	caps := make([]int, 0, 4)
	for i, want := range []string{big, big, short, big} {
		f, err := r.ReadFrame()
		if err != nil || string(f) != want {
			t.Fatalf("frame %d: %d bytes, %v", i, len(f), err)
		}
		caps = append(caps, cap(f))
	}
	if caps[0] != len(big)+1 {
		t.Errorf("the first line of %d bytes (with LF) in a buffer of %d: not joined exactly", len(big)+1, caps[0])
	}
	if sized := len(big) + 1 + (len(big)+1)/16 + minLongRead; caps[1] != sized {
		t.Errorf("the second line in a buffer of %d, want the one sized from the first, %d", caps[1], sized)
	}
	if caps[2] >= 2*len(short) {
		t.Errorf("a line of %d bytes kept in a buffer of %d", len(short), caps[2])
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
}

// deadlineOnceReader reads r, and fails one read with a passed deadline
// once at least at bytes were read, as a pipe read in turns does when a
// turn is cut short.
type deadlineOnceReader struct {
	r      io.Reader
	at     int
	read   int
	passed bool
}

func (d *deadlineOnceReader) Read(p []byte) (int, error) {
	if !d.passed && d.read >= d.at {
		d.passed = true
		return 0, os.ErrDeadlineExceeded
	}
	if !d.passed {
		p = p[:min(len(p), d.at-d.read)]
	}
	n, err := d.r.Read(p)
	d.read += n
	return n, err
}

// A line much shorter than the buffer sized for it is copied into one of
// its own size also when a read deadline cut it short in that buffer: a
// frame given up (GiveUpFrame) would keep the whole buffer alive in the
// messages decoded from it.
func TestReaderFitsASizedLineCutShort(t *testing.T) {
	big := strings.Repeat("s", chunkAfter+5*chunkSize+321)
	short := big[:chunkAfter+chunkSize]
	cut := len(big) + 1 + chunkAfter + chunkSize/2 // inside short, past chunkAfter
	r := NewReader(&deadlineOnceReader{r: strings.NewReader(big + "\n" + short + "\n"), at: cut})
	if f, err := r.ReadFrame(); err != nil || string(f) != big {
		t.Fatalf("frame 0: %d bytes, %v", len(f), err)
	}
	if _, err := r.ReadFrame(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the short line's first part: %v, want the deadline", err)
	}
	f, err := r.ReadFrame()
	if err != nil || string(f) != short {
		t.Fatalf("frame 1: %d bytes, %v", len(f), err)
	}
	if cap(f) >= 2*len(short) {
		t.Errorf("a line of %d bytes cut short by a deadline kept in a buffer of %d", len(short), cap(f))
	}
	if !r.GiveUpFrame() {
		t.Error("the line was not given up")
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
}

// In a buffer sized from the last line, a line exactly at MaxFrameSize is
// read, with LF or CRLF, and one a byte over it is refused, with its size.
func TestReaderSizedLineAtTheLimit(t *testing.T) {
	limit := chunkAfter + 3*chunkSize + 77
	at := strings.Repeat("m", limit)
	over := at + "m"
	in := over[:limit-5] + "\n" + at + "\n" + at + "\r\n" + over + "\n" + over + "\r\n" + at + "\r\n" + "tail\n"
	for _, rd := range map[string]io.Reader{"whole": strings.NewReader(in), "halves": iotest.HalfReader(strings.NewReader(in))} {
		r := NewReader(rd)
		r.MaxFrameSize = limit
		for i, want := range []string{over[:limit-5], at, at, "", "", at, "tail"} {
			f, err := r.ReadFrame()
			if want == "" {
				var tl *FrameTooLargeError
				if !errors.As(err, &tl) || tl.Size != int64(limit+1) {
					t.Fatalf("frame %d, a byte over the limit: %v", i, err)
				}
				continue
			}
			if err != nil || string(f) != want {
				t.Fatalf("frame %d: %d bytes, %v; want %d", i, len(f), err, len(want))
			}
		}
		if _, err := r.ReadFrame(); err != io.EOF {
			t.Fatalf("at the end: %v", err)
		}
	}
}
