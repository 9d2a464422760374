// Package pub is a fixture: one of each kind of declaration.
package pub

import (
	"context"
	"errors"
	"io"

	"example.invalid/mod/internal/hidden"
)

type Kind int

const (
	KindA Kind = iota
	KindB
	kindC
)

const Untyped = 3

var ErrGone = errors.New("gone")

var Hook func(ctx context.Context, name string) error

func Open(ctx context.Context, a, b string, rest ...int) (*Thing, error) { return nil, nil }

func New() *Thing { return nil }

func Map[K comparable, V any](m map[K]V) []K { return nil }

type Thing struct {
	Name, Label string
	io.Reader
	secret  int
	OnEvent func(kind Kind, detail string)
}

func (t *Thing) Close() error  { return nil }
func (t Thing) String() string { return "" }
func (t *Thing) internal()     {}
func helper()                  {}

type Sealed interface {
	Do(ctx context.Context) (n int, err error)
	seal()
}

type Open2 interface {
	io.Closer
	Name() string
}

type Alias = hidden.Thing

type Pair[T any] struct {
	First, Second T
}
