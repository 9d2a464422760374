package cli

import "time"

// clock is where the live elapsed line gets its time. The system clock in
// use; tests give IOStreams one whose ticks they send, so the line is
// tested without waiting.
type clock interface {
	Now() time.Time
	// Ticker returns a channel that receives the time every d, and the
	// function that stops it.
	Ticker(d time.Duration) (ticks <-chan time.Time, stop func())
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// clockOrSystem is s's clock: the system's unless a test set one.
func (s *IOStreams) clockOrSystem() clock {
	if s.clock != nil {
		return s.clock
	}
	return systemClock{}
}
