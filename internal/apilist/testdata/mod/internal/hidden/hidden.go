package hidden

// Thing is reached from pub through an alias: its exported members are
// pub's surface too.
type Thing struct {
	Size  int
	inner string
}

func (t *Thing) Grow(n int) error { return nil }

func (t Thing) Len() int { return len(t.inner) }

func (t *Thing) reset() {}

func Hidden() {}
