package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

// --record FILE writes a wire recording of every server the command talks
// to (see docs/recordings.md): each JSON-RPC message, both ways, as JSON
// lines, headers left out and every secret the command knows (header and
// env values, tokens, URL passwords, config inputs) replaced. The file is
// created 0600 and an existing one is overwritten (and set to 0600), as -o
// does elsewhere: a recording is rerun often while a bug is chased. A
// symbolic link at the path is refused, never followed. A recording that
// fails part way (a full disk) is a warning at the end, never the
// command's failure: the session matters more than its record.

// registerRecord adds --record to fs.
func (f *ServerFlags) registerRecord(fs *flag.FlagSet) {
	fs.StringVar(&f.Record, "record", "", "write every JSON-RPC message, both ways, to `FILE` as JSON lines (secrets masked; replay it with mcptest)")
}

// recording is the open --record file of a command.
type recording struct {
	path string
	f    *os.File
	rec  *transport.Recorder

	mu   sync.Mutex
	done bool
}

// recorder opens the --record file, once per command; nil without the
// flag. A file that cannot be created fails the command before any
// server starts: the user asked for a recording and would get none.
func (f *ServerFlags) recorder(io *IOStreams) (*recording, error) {
	if f.Record == "" {
		return nil, nil
	}
	if io.recording != nil {
		return io.recording, nil
	}
	file, err := transport.CreateRecordFile(f.Record)
	if err != nil {
		return nil, fmt.Errorf("--record: cannot create %s: %w", f.Record, pathReason(err))
	}
	r := &recording{path: f.Record, f: file, rec: transport.NewRecorder(file)}
	r.rec.AddSecrets(io.secretValues()...)
	io.recording = r
	return r, nil
}

// wrap records t's messages, naming them kind ("" guesses the transport:
// stdio, http, sse; a configured server's name otherwise).
func (r *recording) wrap(t transport.Transport, kind string) transport.Transport {
	if r == nil {
		return t
	}
	return transport.Record(t, r.rec, kind)
}

// addSecret keeps a secret learnt after the file was opened (a token
// loaded at connect) out of the recording too.
func (r *recording) addSecret(v string) {
	if r != nil {
		r.rec.AddSecrets(v)
	}
}

// secretValues are the secrets registered so far; those registered later
// reach the recording through AddSecret.
func (s *IOStreams) secretValues() []string {
	if s.secrets == nil {
		return nil
	}
	s.secrets.mu.RLock()
	defer s.secrets.mu.RUnlock()
	return append([]string(nil), s.secrets.list...)
}

// finish closes the file once every client is closed, and warns on
// stderr when the recording is incomplete.
func (r *recording) finish(io *IOStreams) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return
	}
	r.done = true
	err := r.rec.Err()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(io.ErrOut, "mcpwire: warning: the recording %s is incomplete: %s\n", r.path, oneLine(io.Redact(err.Error())))
	}
}

// record wraps an ad-hoc target's transport when --record is given.
func (f *ServerFlags) record(io *IOStreams, t *Target) error {
	r, err := f.recorder(io)
	if err != nil {
		return err
	}
	t.Transport = r.wrap(t.Transport, "")
	return nil
}

// recordDial wraps a manager's dial so that each configured server is
// recorded under its name.
func (f *ServerFlags) recordDial(io *IOStreams, dial func(context.Context, *config.Server) (transport.Transport, error)) (func(context.Context, *config.Server) (transport.Transport, error), error) {
	r, err := f.recorder(io)
	if err != nil || (r == nil && io.wireTap == nil) {
		return dial, err
	}
	return func(ctx context.Context, s *config.Server) (transport.Transport, error) {
		t, err := dial(ctx, s)
		if err != nil {
			return nil, err
		}
		t = r.wrap(t, s.Name)
		if io.wireTap != nil { // mcpwire inspect's wire log
			t = transport.Record(io.inspectWire.TapHTTP(t, s.Name), io.wireTap, s.Name)
		}
		return t, nil
	}, nil
}
