package signin

import (
	"context"

	"github.com/mcpwire/mcpwire/auth"
)

// secretStore registers every secret of every record that passes through
// it (loaded from the store, or saved after a sign-in or refresh) with
// add, before the Authorizer can send it: a server that echoes a token
// back, in an error or a tool result, then finds it masked in the CLI's
// output. Tokens reach the Authorizer only through its Store (Load at
// first use, Save for each token it obtains), so nothing passes by.
type secretStore struct {
	auth.Store
	add func(string)
}

// lockingSecretStore is a secretStore over a store that can lock records
// (auth.RecordLocker), which the Authorizer finds by type assertion and
// must still find.
type lockingSecretStore struct {
	secretStore
	locker auth.RecordLocker
}

func (s *lockingSecretStore) LockRecord(ctx context.Context, serverURL string) (func(), error) {
	return s.locker.LockRecord(ctx, serverURL)
}

// registeringStore wraps st so that its secrets are registered with add;
// nil add returns st.
func registeringStore(st auth.Store, add func(string)) auth.Store {
	if add == nil {
		return st
	}
	s := secretStore{Store: st, add: add}
	if l, ok := st.(auth.RecordLocker); ok {
		return &lockingSecretStore{secretStore: s, locker: l}
	}
	return &s
}

func (s *secretStore) Load(ctx context.Context, serverURL string) (*auth.Record, error) {
	r, err := s.Store.Load(ctx, serverURL)
	s.note(r)
	return r, err
}

func (s *secretStore) Save(ctx context.Context, r *auth.Record) error {
	s.note(r)
	return s.Store.Save(ctx, r)
}

func (s *secretStore) List(ctx context.Context) ([]*auth.Record, error) {
	rs, err := s.Store.List(ctx)
	for _, r := range rs {
		s.note(r)
	}
	return rs, err
}

// note registers r's tokens and its registered client's secret.
func (s *secretStore) note(r *auth.Record) {
	if r == nil {
		return
	}
	if r.Token != nil {
		s.add(r.Token.AccessToken)
		s.add(r.Token.RefreshToken)
	}
	if r.Registration != nil {
		s.add(r.Registration.ClientSecret)
	}
}
