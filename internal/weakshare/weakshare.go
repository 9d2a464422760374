// Package weakshare shares read-only values between the sessions that
// would each build an equal one (a configuration snapshot, the _meta every
// request carries): a thousand idle sessions of one configuration then hold
// one copy. The table holds its values weakly, so a value goes with the
// last session that holds it, and its entry with it.
package weakshare

import (
	"runtime"
	"sync"
	"weak"
)

// Table maps keys to the values shared under them. The zero Table is
// ready to use; it must not be copied once used.
type Table[K comparable, V any] struct {
	m sync.Map // K -> weak.Pointer[V]
}

// Get returns the live value of k, nil if there is none.
func (t *Table[K, V]) Get(k K) *V {
	if p, ok := t.m.Load(k); ok {
		return p.(weak.Pointer[V]).Value()
	}
	return nil
}

// Share returns the live value of k, or else v, which it records under k
// for later callers. The caller must never write to what it shares. Two
// callers racing may each get their own; the later one stays recorded, and
// the other's cleanup leaves it be.
func (t *Table[K, V]) Share(k K, v *V) *V {
	if old := t.Get(k); old != nil {
		return old
	}
	wp := weak.Make(v)
	t.m.Store(k, wp)
	runtime.AddCleanup(v, func(k K) { t.m.CompareAndDelete(k, wp) }, k)
	return v
}

// Has reports whether k has an entry, live or not yet cleaned up.
func (t *Table[K, V]) Has(k K) bool {
	_, ok := t.m.Load(k)
	return ok
}
