package server

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// A sealed session id carries what an older-era session negotiated,
// encrypted and authenticated (AES-256-GCM) under a key every replica
// shares, so that any replica can serve the session's requests without
// shared storage. Its form is "v1." followed by the unpadded base64url of
// nonce || ciphertext.

const (
	sealedPrefix = "v1."
	// sealedAAD binds the ciphertext to its use: bytes sealed under the
	// same key for another purpose do not open as a session id.
	sealedAAD = "mcpwire session id v1"
	// SessionKeySize is the length of a session key in bytes (AES-256).
	SessionKeySize = 32
	// maxSealedIDLen bounds what is decoded: a session's capabilities and
	// client info are small, and an id is a header value.
	maxSealedIDLen = 8 << 10
)

// sealedSession is what a sealed id carries.
type sealedSession struct {
	Version    string          `json:"pv"`
	ClientInfo Implementation  `json:"ci"`
	ClientCaps json.RawMessage `json:"cc,omitempty"`
	// Issued is when the session started (Unix seconds), kept so that a
	// replica can tell an id's age.
	Issued int64 `json:"iat"`
	// Peer is who started the session (HTTPOptions.Peer), so that every
	// replica serves it to them only; empty in ids sealed before it was.
	Peer string `json:"who,omitempty"`
}

// sessionSealer seals with its first key and opens with any of them, so
// that keys can be rotated without ending sessions.
type sessionSealer struct {
	aeads []cipher.AEAD
}

var (
	errSealedID      = errors.New("not a session id sealed under any of this server's session keys")
	errSessionTooOld = errors.New("a session id older than the server's session maximum age")
)

func newSessionSealer(keys [][]byte) (*sessionSealer, error) {
	s := &sessionSealer{}
	for i, k := range keys {
		if len(k) != SessionKeySize {
			return nil, fmt.Errorf("session key %d is %d bytes; it must be %d", i+1, len(k), SessionKeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, fmt.Errorf("session key %d: %w", i+1, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("session key %d: %w", i+1, err)
		}
		s.aeads = append(s.aeads, aead)
	}
	if len(s.aeads) == 0 {
		return nil, errors.New("no session key")
	}
	return s, nil
}

func (s *sessionSealer) seal(st sealedSession) (string, error) {
	plain, err := json.Marshal(st)
	if err != nil {
		return "", fmt.Errorf("sealing the session id: %w", err)
	}
	aead := s.aeads[0]
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("sealing the session id: %w", err)
	}
	sealed := aead.Seal(nonce, nonce, plain, []byte(sealedAAD))
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// open returns what id carries; only the one spelling seal produced
// opens (strict base64), so that ids compare as strings. Its errors never quote the id: a foreign
// id may be someone else's secret.
func (s *sessionSealer) open(id string) (sealedSession, error) {
	var st sealedSession
	if len(id) > maxSealedIDLen {
		return st, fmt.Errorf("%w (%d bytes, longer than %d)", errSealedID, len(id), maxSealedIDLen)
	}
	if len(id) < len(sealedPrefix) || id[:len(sealedPrefix)] != sealedPrefix {
		return st, fmt.Errorf("%w (no %q prefix)", errSealedID, sealedPrefix)
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(id[len(sealedPrefix):])
	if err != nil {
		return st, fmt.Errorf("%w (not base64url)", errSealedID)
	}
	for _, aead := range s.aeads {
		n := aead.NonceSize()
		if len(raw) < n+aead.Overhead() {
			return st, fmt.Errorf("%w (too short)", errSealedID)
		}
		plain, err := aead.Open(nil, raw[:n], raw[n:], []byte(sealedAAD))
		if err != nil {
			continue
		}
		if err := json.Unmarshal(plain, &st); err != nil || st.Version == "" {
			// Only a key holder can produce this: a bug or a foreign
			// program sharing the key.
			return sealedSession{}, fmt.Errorf("%w (its sealed content is not a session)", errSealedID)
		}
		return st, nil
	}
	return st, fmt.Errorf("%w (authentication failed: tampered, or sealed under another key)", errSealedID)
}

// sealSession replaces o's local id by a sealed one carrying what its
// initialize negotiated. It runs after initialize was answered, before
// the id reaches the client.
func (h *HTTPHandler) sealSession(o *httpOut) (string, error) {
	ss := o.ss
	ss.mu.Lock()
	issued := time.Now()
	st := sealedSession{Version: ss.version, ClientInfo: ss.clientInfo, ClientCaps: ss.clientCaps, Issued: issued.Unix(), Peer: ss.peer}
	ss.mu.Unlock()
	o.issued = time.Unix(issued.Unix(), 0) // what another replica reads back
	id, err := h.sealer.seal(st)
	if err != nil {
		return "", err
	}
	old := ss.ID()
	ss.setID(id)
	h.mu.Lock()
	if h.sessions[old] == o {
		delete(h.sessions, old)
	}
	h.sessions[id] = o
	o.key = id
	h.mu.Unlock()
	return id, nil
}

// reopen serves a sealed id this replica does not hold (another replica
// started the session, or this one restarted): a new local session is
// built from what the id carries, r's sender its owner when the id names
// none. A refused id is reported through SessionWarn without its content;
// nil means the caller answers 404, unless the error is
// errTooManySessions. What it returns is held for the request.
func (h *HTTPHandler) reopen(id string, r *http.Request) (*httpOut, error) {
	st, err := h.sealer.open(id)
	if err != nil {
		h.warn(fmt.Errorf("refused a session id: %w", err))
		return nil, nil
	}
	issued := time.Unix(st.Issued, 0)
	if h.outlived(issued) {
		h.warn(h.tooOld(issued))
		return nil, nil
	}
	o := newHTTPOut(h)
	o.issued = issued
	ss, err := h.srv.newSession(o, false)
	if err != nil {
		return nil, nil
	}
	o.ss = ss
	ss.setID(id)
	if ss.peer = st.Peer; st.Peer == "" {
		h.setPeer(ss, r)
	}
	ss.mu.Lock()
	ss.initialize = true
	ss.version = st.Version
	ss.clientInfo = st.ClientInfo
	ss.clientCaps = st.ClientCaps
	ss.mu.Unlock()
	// The client sent notifications/initialized to the replica that
	// started the session.
	ss.initOnce.Do(func() { close(ss.initialized) })
	h.mu.Lock()
	if prev := h.sessions[id]; prev != nil || h.closed || h.revokedLocked(id) {
		if prev != nil {
			prev.hold()
		}
		h.mu.Unlock()
		ss.shutdown() // a concurrent request reopened it first, or it ended
		return prev, nil
	}
	if h.fullLocked() {
		h.mu.Unlock()
		ss.shutdown()
		return nil, errTooManySessions
	}
	h.registerLocked(id, o)
	h.mu.Unlock()
	return o, nil
}

func (h *HTTPHandler) warn(err error) {
	if h.opts.SessionWarn == nil {
		return
	}
	if ok, note := h.warns.admit(time.Now()); ok {
		if note != "" {
			err = fmt.Errorf("%w%s", err, note)
		}
		h.opts.SessionWarn(err)
	}
}

// outlived reports whether a sealed session that started at issued is
// older than HTTPOptions.SessionMaxAge.
func (h *HTTPHandler) outlived(issued time.Time) bool {
	return h.sealer != nil && h.opts.SessionMaxAge > 0 && !issued.IsZero() && time.Since(issued) > h.opts.SessionMaxAge
}

// tooOld says why an id that outlived SessionMaxAge is refused, without
// the id.
func (h *HTTPHandler) tooOld(issued time.Time) error {
	return fmt.Errorf("refused a session id: %w (its session started at %s, more than %s ago)", errSessionTooOld, issued.UTC().Format(time.RFC3339), h.opts.SessionMaxAge)
}
