package agt

import (
	"crypto/sha1"
	"encoding/hex"
	"hash"
	"unsafe"

	"github.com/google/uuid"
)

// Namespace is the UUIDv5 namespace of agt session ids.
var Namespace = uuid.MustParse("6f1b2c3a-9d4e-5a7b-8c1d-2e3f4a5b6c7d")

// SessionID is UUIDv5(Namespace, provider NUL native session id).
func SessionID(provider, native string) string {
	return uuid.NewSHA1(Namespace, []byte(provider+"\x00"+native)).String()
}

// EventID is UUIDv5(session, native record id NUL suffix).
func EventID(session uuid.UUID, key, suffix string) string {
	return uuid.NewSHA1(session, []byte(key+"\x00"+suffix)).String()
}

// idMaker computes event ids like EventID with one reused hash, as the
// emitter makes one per event.
type idMaker struct {
	h   hash.Hash
	sum [sha1.Size]byte
	out [36]byte
}

func (m *idMaker) id(session uuid.UUID, key, suffix string) string {
	if m.h == nil {
		m.h = sha1.New()
	}
	m.h.Reset()
	m.h.Write(session[:])
	m.h.Write(unsafe.Slice(unsafe.StringData(key), len(key))) // read, not kept: no copy of a long key
	m.h.Write([]byte{0})
	m.h.Write(unsafe.Slice(unsafe.StringData(suffix), len(suffix)))
	s := m.h.Sum(m.sum[:0])
	var u uuid.UUID
	copy(u[:], s)
	u[6] = (u[6] & 0x0f) | 0x50 // version 5
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant
	b := m.out[:]
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b)
}
