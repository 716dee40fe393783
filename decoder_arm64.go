package agt

import (
	"encoding/json"
	"strings"
	_ "unsafe" // go:linkname
)

// On arm64 sonic has only its non-JIT decoder, which parts from the JIT
// decoder of amd64 on records it refuses: it stops at a member of the
// wrong type where the JIT decoder fills the others, and it refuses a
// number past float64's range even in a member it skips. A record it
// refuses is read again by encoding/json, which reads it as the JIT
// decoder does, so that what is kept of it does not depend on the
// machine; its error stays the non-JIT decoder's (Decode words it again).
//
//go:linkname decodeImpl github.com/bytedance/sonic/internal/decoder/api.decodeImpl
var decodeImpl func(s *string, i *int, f uint64, val any) error

//go:linkname optDecode github.com/bytedance/sonic/internal/decoder/optdec.Decode
func optDecode(s *string, i *int, f uint64, val any) error

func init() { decodeImpl = sonicDecode }

func sonicDecode(s *string, i *int, f uint64, val any) error {
	start := *i
	err := optDecode(s, i, f, val)
	if err == nil {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader((*s)[start:]))
	if dec.Decode(val) == nil {
		*i = start + int(dec.InputOffset())
		return nil
	}
	return err
}

// Compiled compiles nothing on arm64, where sonic has no JIT decoder (see
// decoder_amd64.go).
func Compiled(v any) bool { return false }
