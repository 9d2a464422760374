package manager

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// Defaults of Options.
const (
	DefaultStartupGate     = 250 * time.Millisecond
	DefaultReconnectWait   = 10 * time.Second
	DefaultConnectTimeout  = 30 * time.Second
	DefaultCacheTTL        = 30 * 24 * time.Hour
	DefaultBreakerCrashes  = 5
	DefaultBreakerWindow   = 30 * time.Second
	DefaultEventQueue      = 1024
	DefaultEventQueueBytes = 8 << 20
	DefaultRefreshQuiet    = 100 * time.Millisecond
	DefaultRefreshMaxWait  = time.Second
)

// DefaultBackoff returns the wait before each reconnect attempt after a
// crash or a failed attempt; the last step repeats. Each wait gets ±20 %
// jitter so that servers that died together do not restart in lockstep.
// It returns a new slice each time, so a caller's change reaches no other
// manager.
func DefaultBackoff() []time.Duration {
	return []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}
}

// Options configure a Manager. The zero value (or a nil *Options) is
// usable: see each field for its default.
type Options struct {
	// StartupGate is how long Start waits for servers before it returns
	// what is ready; servers still connecting stand in with their cached
	// tools. Zero means DefaultStartupGate (250 ms); negative means Start
	// does not wait at all.
	StartupGate time.Duration

	// CacheDir holds the tool cache, one file per server. Empty means
	// os.UserCacheDir()/mcpwire/tools. DisableCache turns the cache off.
	CacheDir     string
	DisableCache bool
	// CacheTTL is how old a cache file may be to stand in for a server.
	// Zero means DefaultCacheTTL (30 days).
	CacheTTL time.Duration

	// ConnectTimeout bounds one connection attempt: opening the
	// transport, the handshake and the first listings. Zero means
	// DefaultConnectTimeout (30 s).
	ConnectTimeout time.Duration
	// ReconnectWait bounds how long a call waits for its server to
	// connect or reconnect before failing with ErrNotReady. The call's ctx
	// and its CallOptions.Timeout bound the wait too. Zero means
	// DefaultReconnectWait (10 s).
	ReconnectWait time.Duration
	// Backoff is the wait before each reconnect attempt; the last entry
	// repeats. Nil means DefaultBackoff (0.5, 1, 2, 4 s), each with ±20 %
	// jitter. The step resets once a connection stays up for
	// BreakerWindow.
	Backoff []time.Duration
	// BreakerCrashes failures in a row (attempts that failed, and
	// connections that ended before they were up for BreakerWindow) stop
	// automatic restarts until Connect is called. A connection that stays
	// up for BreakerWindow ends the run. Counting in attempts, not in
	// time, trips the breaker on a server that hangs too: with the
	// defaults, one that never answers initialize opens it after five
	// 30 s connect timeouts and the backoff between them, about 2 min
	// 38 s. Zero means DefaultBreakerCrashes (5) and DefaultBreakerWindow
	// (30 s); a negative BreakerCrashes disables the breaker.
	BreakerCrashes int
	BreakerWindow  time.Duration
	// KeepAlive, when positive, pings every connected server at that
	// interval; a ping that fails or takes longer than the interval closes
	// the connection, which then reconnects like a crash.
	KeepAlive time.Duration

	// EventQueue and EventQueueBytes bound each subscriber's queue of
	// events (see Subscribe), in count and in bytes: an event counts its
	// notification's method and params plus a fixed 256 bytes. When it
	// is full, the oldest Notification or Warning event is dropped to
	// make room, and the subscriber is told with a Dropped event; state
	// changes are never dropped. Zero or negative means
	// DefaultEventQueue (1024) and DefaultEventQueueBytes (8 MiB). One
	// notification larger than EventQueueBytes still reaches an empty
	// queue.
	EventQueue      int
	EventQueueBytes int

	// RefreshQuiet and RefreshMaxWait debounce the refreshes that
	// list_changed notifications ask for: a list is fetched again once
	// no announcement of it came for RefreshQuiet, and at the latest
	// RefreshMaxWait after the first announcement not yet served, so a
	// storm of announcements costs a few listings and events while the
	// last listing still follows the last announcement. Zero or
	// negative means DefaultRefreshQuiet (100 ms) and
	// DefaultRefreshMaxWait (1 s).
	RefreshQuiet   time.Duration
	RefreshMaxWait time.Duration

	// Client is the template of every server's client options (client
	// info, sampling, elicitation, roots handlers). The manager copies it
	// per server, sets Timeout from the server's config when the config
	// gives one, and chains ErrorHook after its own (which turns those
	// problems into Warning events). Nil means defaults.
	Client *mcp.ClientOptions

	// Dial turns a server definition into a transport. Nil means
	// DialWith(Dir, Stderr): transport.FromServer with Dir and Stderr below. Tests use it to reach
	// in-process servers.
	Dial func(ctx context.Context, s *config.Server) (transport.Transport, error)
	// Dir is the working directory of stdio servers whose config gives no
	// cwd (normally the project directory); empty means this process's.
	// Used by the default Dial only.
	Dir string
	// Stderr, when set, returns where a stdio server's stderr is copied
	// live (nil for nowhere); the last 64 KiB are kept for error messages
	// either way. Used by the default Dial only.
	Stderr func(server string) io.Writer

	// StartUntrusted lets the manager start servers whose definition is
	// marked config.Source.Untrusted (a project file the user has not
	// approved, loaded with config.LoadOptions.LoadUntrusted). Off (the
	// default), such a server, and every server of a file in
	// config.Set.Untrusted, is listed with StateUntrusted and never
	// started or connected. Servers from the user's own files and from
	// files the caller named are never untrusted.
	StartUntrusted bool

	// jitter scales a backoff step; tests replace it for exact timings.
	jitter func(time.Duration) time.Duration
}

// resolved returns the options with defaults filled in.
func (o *Options) resolved() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.StartupGate == 0 {
		r.StartupGate = DefaultStartupGate
	}
	if r.CacheTTL <= 0 {
		r.CacheTTL = DefaultCacheTTL
	}
	if r.ConnectTimeout <= 0 {
		r.ConnectTimeout = DefaultConnectTimeout
	}
	if r.ReconnectWait <= 0 {
		r.ReconnectWait = DefaultReconnectWait
	}
	if len(r.Backoff) == 0 {
		r.Backoff = DefaultBackoff()
	}
	if r.BreakerCrashes == 0 {
		r.BreakerCrashes = DefaultBreakerCrashes
	}
	if r.BreakerWindow <= 0 {
		r.BreakerWindow = DefaultBreakerWindow
	}
	if r.EventQueue <= 0 {
		r.EventQueue = DefaultEventQueue
	}
	if r.EventQueueBytes <= 0 {
		r.EventQueueBytes = DefaultEventQueueBytes
	}
	if r.RefreshQuiet <= 0 {
		r.RefreshQuiet = DefaultRefreshQuiet
	}
	if r.RefreshMaxWait <= 0 {
		r.RefreshMaxWait = DefaultRefreshMaxWait
	}
	if r.Dial == nil {
		r.Dial = DialWith(r.Dir, r.Stderr)
	}
	if r.jitter == nil {
		r.jitter = jitter
	}
	if r.CacheDir == "" && !r.DisableCache {
		base, err := os.UserCacheDir()
		if err != nil {
			// Without a cache directory there is no cache; everything
			// else works.
			r.DisableCache = true
		} else {
			r.CacheDir = filepath.Join(base, "mcpwire", "tools")
		}
	}
	return r
}

// jitter spreads d by ±20 %.
func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// backoff returns the wait before the reconnect that follows step
// consecutive failures.
func (o *Options) backoff(step int) time.Duration {
	if step >= len(o.Backoff) {
		step = len(o.Backoff) - 1
	}
	return o.jitter(o.Backoff[step])
}
