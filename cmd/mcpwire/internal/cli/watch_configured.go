package cli

import (
	"context"

	"github.com/mcpwire/mcpwire/manager"
)

// watchConfigured watches every enabled configured server at once: each
// is connected in parallel and watched as soon as it is up. One that
// fails to start, or goes away later, is reported on stderr while the
// others are still watched; the command ends on Ctrl-C, or with exit
// status 3 once no server is left.
func watchConfigured(ctx context.Context, io *IOStreams, f *TargetFlags, watch func(c Conn) error) error {
	s, err := openConfigured(io, &f.Config, &f.ServerFlags)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.refuseUntrusted(); err != nil {
		return err // as every command about all the servers refuses
	}
	if _, err := s.M.Start(ctx); err != nil {
		return err
	}
	var servers []manager.ServerStatus
	for _, st := range s.M.Servers() {
		if st.State != manager.StateDisabled {
			servers = append(servers, st)
		}
	}
	if len(servers) == 0 {
		return noServerGiven()
	}
	type outcome struct {
		st  manager.ServerStatus
		err error
	}
	done := make(chan outcome, len(servers)) // buffered: no sender waits
	for _, st := range servers {
		go func() {
			c, err := s.connect(ctx, st.Name)
			if err == nil {
				c.Many = len(servers) > 1
				err = watch(c)
			}
			done <- outcome{st, err}
		}()
	}
	var gone []manager.ServerStatus
	for range servers {
		o := <-done
		if ctx.Err() != nil {
			continue // interrupted: every watch ends so
		}
		// A server that did not start, or went away: said now, while the
		// others are still watched.
		Report(ctx, io, o.err)
		gone = append(gone, o.st)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return failureError(gone, len(servers))
}
