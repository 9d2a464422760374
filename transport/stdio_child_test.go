//go:build unix

package transport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonl"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Child modes.
const (
	// childEcho answers each request with its params as the result and
	// exits 0 at the end of stdin.
	childEcho = "echo"
	// childWrapEcho answers every line, without decoding it, with a
	// response of id 1 whose result is that line: cheap for huge lines.
	childWrapEcho = "wrap-echo"
	// childPrintEnv sends its environment as an "env" notification, then echoes.
	childPrintEnv = "env"
	// childFloodStderr writes floodBytes to stderr, then floodMarker,
	// before each answer; it exits 3 on the request "exit".
	childFloodStderr = "flood-stderr"
	// childExit3 writes two lines to stderr and exits with status 3.
	childExit3 = "exit3"
	// childSloppy answers each request without the "jsonrpc" member, as
	// some hand-written servers do: a response the strict codec refuses.
	childSloppy = "sloppy"
	// childBadKey prints the value of API_KEY in a log line on stdout,
	// complains about it on stderr, as a server refused by its upstream
	// does, and exits with status 2.
	childBadKey = "bad-key"
	// childKillSelf dies of SIGKILL after a line on stderr.
	childKillSelf = "kill-self"
	// childCloseStdout closes stdout and keeps running until stdin ends.
	childCloseStdout = "close-stdout"
	// childIgnoreTerm ignores SIGTERM and stdin EOF; only SIGKILL ends it.
	childIgnoreTerm = "ignore-term"
	// childReadOne reads one byte of stdin, sends "started", and then
	// never reads again, until a signal ends it.
	childReadOne = "read-one"
	// childHang never reads stdin and runs until a signal ends it.
	childHang = "hang"
	// childHalfLine answers every request with {"half":true}, except that
	// it answers a request "half" by writing the first half of the
	// response line, then halfWritten to stderr, and the rest only when
	// the next line arrives.
	childHalfLine = "half-line"
	// childSpawn starts a grandchild in childHang mode sharing its stdio,
	// reports the grandchild's pid in a "spawned" notification, then hangs
	// ignoring stdin EOF.
	childSpawn = "spawn"
	// childClient is an mcpwire client, not a server: it connects to
	// forkingServer(childIgnoreTerm), prints the server's pid, and then
	// waits to be killed.
	childClient = "client"
	// childPoke echoes requests, answers the notification "poke" with
	// the notification "poked", and exits with status 5 on the
	// notification "quit": messages that reach a client that waits for
	// nothing.
	childPoke = "poke"
	// childExitOnRequest echoes requests, and on the request "exit"
	// writes exitWords to stderr and exits with status 3, unanswered.
	childExitOnRequest = "exit-on-request"
)

// exitWords is childExitOnRequest's last line on stderr.
const exitWords = "leaving on request"

const (
	floodBytes  = 4 << 20
	floodMarker = "FLOOD-DONE"
	readyMethod = "ready"
)

func runChild(mode string) int {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	send := func(m jsonrpc.Message) {
		b, err := jsonrpc.EncodeMessage(m)
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: encode:", err)
			os.Exit(70)
		}
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	notify := func(method string, params any) {
		n, err := jsonrpc.NewNotification(method, params)
		if err != nil {
			os.Exit(70)
		}
		send(n)
	}
	switch mode {
	case childEcho:
		return echoRequests(send, nil)
	case childPoke:
		return eachFrame(func(frame []byte) int {
			switch m, _ := jsonrpc.DecodeMessage(frame); m := m.(type) {
			case *jsonrpc.Request:
				send(&jsonrpc.Response{ID: m.ID, Result: json.RawMessage(`{}`)})
			case *jsonrpc.Notification:
				switch m.Method {
				case "poke":
					notify("poked", nil)
				case "quit":
					return 5
				}
			}
			return -1
		})
	case childWrapEcho:
		return eachFrame(func(frame []byte) int {
			out.WriteString(`{"jsonrpc":"2.0","id":1,"result":`)
			out.Write(frame)
			out.WriteString("}\n")
			out.Flush()
			return -1
		})
	case childPrintEnv:
		notify("env", os.Environ())
		return echoRequests(send, nil)
	case childFloodStderr:
		chunk := []byte(strings.Repeat("log line of a chatty server ......\n", 1024))
		return echoRequests(send, func(req *jsonrpc.Request) int {
			for written := 0; written < floodBytes; written += len(chunk) {
				os.Stderr.Write(chunk)
			}
			fmt.Fprintln(os.Stderr, floodMarker)
			if req.Method == "exit" {
				fmt.Fprintln(os.Stderr, "final words before exit 3")
				return 3
			}
			return -1
		})
	case childExit3:
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "fatal: config file missing")
		return 3
	case childSloppy:
		return eachFrame(func(frame []byte) int {
			if req, ok := decodeRequest(frame); ok {
				fmt.Fprintf(out, "{\"id\":%s,\"result\":{}}\n", req.ID)
				out.Flush()
			}
			return -1
		})
	case childBadKey:
		// A log line on stdout first, as careless servers write them.
		fmt.Fprintf(out, "using API key %s\n", os.Getenv("API_KEY"))
		out.Flush()
		fmt.Fprintf(os.Stderr, "upstream refused API key %s\nbye\n", os.Getenv("API_KEY"))
		return 2
	case childKillSelf:
		fmt.Fprintln(os.Stderr, "about to die")
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // not reached
	case childHalfLine:
		r := jsonl.NewReader(os.Stdin)
		var rest []byte // the second half of a line, sent before the next answer
		for {
			frame, err := r.ReadFrame()
			if err != nil {
				return 0
			}
			if rest != nil {
				out.Write(rest)
				out.Flush()
				rest = nil
			}
			req, ok := decodeRequest(frame)
			if !ok {
				continue
			}
			b, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{"half":true}`)})
			b = append(b, '\n')
			if req.Method == "half" {
				b, rest = b[:len(b)/2], b[len(b)/2:]
			}
			out.Write(b)
			out.Flush()
			if rest != nil {
				fmt.Fprintln(os.Stderr, halfWritten)
			}
		}
	case childCloseStdout:
		os.Stdout.Close()
		drainStdin()
		return 0
	case childIgnoreTerm:
		signal.Ignore(syscall.SIGTERM)
		notify(readyMethod, nil)
		drainStdin()
		sleepForever()
	case childReadOne:
		one := make([]byte, 1)
		if _, err := os.Stdin.Read(one); err != nil {
			return 65
		}
		notify("started", nil)
		sleepForever()
	case childHang:
		notify(readyMethod, nil)
		sleepForever()
	case childSpawn:
		signal.Ignore(syscall.SIGTERM)
		exe, _ := os.Executable()
		gc := exec.Command(exe)
		gc.Env = append(os.Environ(), childModeEnv+"="+childHang)
		gc.Stdout, gc.Stderr = os.Stderr, os.Stderr // holds our stderr open
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "child: spawn:", err)
			return 70
		}
		notify("spawned", map[string]int{"pid": gc.Process.Pid})
		drainStdin()
		sleepForever()
	case childClient:
		return runClient()
	case childExitOnRequest:
		return echoRequests(send, func(req *jsonrpc.Request) int {
			if req.Method == "exit" {
				fmt.Fprintln(os.Stderr, exitWords)
				return 3
			}
			return -1
		})
	}
	fmt.Fprintf(os.Stderr, "child: unknown mode %q\n", mode)
	return 64
}

// echoRequests answers requests with their params until stdin ends. before,
// if set, runs before each answer; a non-negative result exits with it.
func echoRequests(send func(jsonrpc.Message), before func(*jsonrpc.Request) int) int {
	r := jsonl.NewReader(os.Stdin)
	for {
		frame, err := r.ReadFrame()
		if err != nil {
			return 0
		}
		m, err := jsonrpc.DecodeMessage(frame)
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: bad input:", err)
			continue
		}
		req, ok := m.(*jsonrpc.Request)
		if !ok {
			continue
		}
		if before != nil {
			if code := before(req); code >= 0 {
				return code
			}
		}
		result := req.Params
		if len(result) == 0 {
			result = json.RawMessage(`{}`)
		}
		send(&jsonrpc.Response{ID: req.ID, Result: result})
	}
}

// eachFrame runs fn on every line of stdin until fn returns an exit code
// (>= 0), or stdin ends (0).
func eachFrame(fn func(frame []byte) int) int {
	r := jsonl.NewReader(os.Stdin)
	for {
		frame, err := r.ReadFrame()
		if err != nil {
			return 0
		}
		if code := fn(frame); code >= 0 {
			return code
		}
	}
}

// halfWritten is what childHalfLine writes to stderr after half a line.
const halfWritten = "HALF-WRITTEN"

// decodeRequest decodes a frame that should hold one request.
func decodeRequest(frame []byte) (*jsonrpc.Request, bool) {
	m, err := jsonrpc.DecodeMessage(frame)
	if err != nil {
		return nil, false
	}
	req, ok := m.(*jsonrpc.Request)
	return req, ok
}

func drainStdin() {
	buf := make([]byte, 4096)
	for {
		if _, err := os.Stdin.Read(buf); err != nil {
			return
		}
	}
}

// sleepForever blocks a child until a signal ends it.
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}
