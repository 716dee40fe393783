package agt

import "github.com/google/uuid"

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
