package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"time"

	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/gateway/tracing"
	"github.com/mcpwire/mcpwire/internal/origin"
)

// serveOpsFlags are serve's policy and operation flags: the audit log,
// OAuth in front of the endpoint, metrics and traces.
type serveOpsFlags struct {
	AuditLog      string
	AuditArgs     bool
	OAuthIssuer   string
	OAuthAudience string
	OAuthJWKS     string
	MetricsListen string
	Traces        bool
}

func (f *serveOpsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.AuditLog, "audit-log", "", "append a JSON line per tool call to `FILE` (\"-\": standard output, with --listen)")
	fs.BoolVar(&f.AuditArgs, "audit-args", false, "with --audit-log, log each call's arguments too (secret-looking values blanked)")
	fs.StringVar(&f.OAuthIssuer, "oauth-issuer", "", "with --listen, require JWT access tokens from the authorization server `URL`")
	fs.StringVar(&f.OAuthAudience, "oauth-audience", "", "with --oauth-issuer, the audience `AUD` tokens must be for (this gateway's resource)")
	fs.StringVar(&f.OAuthJWKS, "oauth-jwks", "", "with --oauth-issuer, the issuer's key set `URL` (default: jwks_uri of its metadata)")
	fs.BoolVar(&f.Traces, "traces", false, "export OpenTelemetry traces over OTLP/HTTP (also on when OTEL_EXPORTER_OTLP_ENDPOINT is set)")
	fs.StringVar(&f.MetricsListen, "metrics-listen", "", "serve /metrics, /healthz and /readyz at `ADDR` without authentication, instead of /metrics on the endpoint")
}

func (f *serveOpsFlags) check(stdio, staticToken bool) error {
	if f.AuditArgs && f.AuditLog == "" {
		return Usagef("--audit-args needs --audit-log")
	}
	if f.AuditLog == "-" && stdio {
		return Usagef("--audit-log -: standard output carries the protocol with --stdio; give a file")
	}
	if f.OAuthIssuer == "" {
		if f.OAuthAudience != "" || f.OAuthJWKS != "" {
			return Usagef("--oauth-audience and --oauth-jwks need --oauth-issuer")
		}
		return nil
	}
	if stdio {
		return Usagef("--oauth-issuer is for --listen")
	}
	if staticToken {
		return Usagef("--oauth-issuer and --auth-token-env cannot be combined")
	}
	if f.OAuthAudience == "" {
		return Usagef("--oauth-issuer needs --oauth-audience AUD (the audience tokens must name)")
	}
	if err := checkKeyURL(f.OAuthIssuer); err != nil {
		return Usagef("--oauth-issuer: %v", err)
	}
	if f.OAuthJWKS != "" {
		if err := checkKeyURL(f.OAuthJWKS); err != nil {
			return Usagef("--oauth-jwks: %v", err)
		}
	}
	return nil
}

// checkKeyURL accepts where the gateway may read the keys that sign
// access tokens: https, or http on loopback (the gateway refuses the rest
// at its first fetch; said at start, it is a usage error, not a 401 on
// every request).
func checkKeyURL(raw string) error {
	if err := checkHTTPURL(raw); err != nil {
		return err
	}
	if u, _ := url.Parse(raw); u.Scheme == "http" && !origin.IsLoopbackHost(u.Hostname()) {
		return errors.New("not an https URL (plain http is for loopback only: the keys that sign access tokens must not be read over an open channel)")
	}
	return nil
}

// checkHTTPURL accepts an absolute http(s) URL; errors never repeat it,
// as it may carry a password.
func checkHTTPURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("not a URL")
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return errors.New("not an absolute http or https URL")
	}
	return nil
}

func (f *serveOpsFlags) oauth() *gateway.OAuthOptions {
	if f.OAuthIssuer == "" {
		return nil
	}
	return &gateway.OAuthOptions{Issuer: f.OAuthIssuer, Audience: f.OAuthAudience, JWKSURL: f.OAuthJWKS}
}

// apply sets the gateway options the flags ask for; the func it returns
// closes what it opened.
func (f *serveOpsFlags) apply(ctx context.Context, streams *IOStreams, o *gateway.Options) (func(), error) {
	closers := []func(){}
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	if f.Traces || tracing.Wanted() {
		hook, shutdown, err := tracing.Start(ctx)
		if err != nil {
			return nil, Usagef("--traces: %s", streams.Redact(err.Error()))
		}
		// Flushing outlives ctx, which has ended by then, but not by long:
		// a collector that is gone must not hold the exit up.
		closers = append(closers, func() {
			flush, stop := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer stop()
			_ = shutdown(flush)
		})
		o.Hooks = append(o.Hooks, hook)
	}
	switch f.AuditLog {
	case "":
	case "-":
		o.Audit = &gateway.AuditOptions{Out: streams.Out, Arguments: f.AuditArgs}
	default:
		file, err := openAuditLog(f.AuditLog)
		if err != nil {
			closeAll()
			return nil, Usagef("--audit-log: cannot open %s: %v", f.AuditLog, err)
		}
		closers = append(closers, func() { _ = file.Close() })
		o.Audit = &gateway.AuditOptions{Out: file, Arguments: f.AuditArgs}
	}
	return closeAll, nil
}

// serveMetrics serves the metrics and health endpoints apart when
// --metrics-listen asks; the func it returns stops them.
func (f *serveOpsFlags) serveMetrics(streams *IOStreams, g *gateway.Gateway) (func(), error) {
	if f.MetricsListen == "" {
		return func() {}, nil
	}
	ln, err := listenTCP("--metrics-listen", f.MetricsListen)
	if err != nil {
		return nil, err
	}
	srv := newServeHTTPServer(g.OpsHandler())
	fmt.Fprintf(streams.ErrOut, "mcpwire: metrics at http://%s/metrics\n", ln.Addr())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	return func() {
		_ = srv.Close()
		<-done
	}, nil
}
