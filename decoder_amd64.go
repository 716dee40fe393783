package agt

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe" // and go:linkname

	"github.com/bytedance/sonic/decoder"
)

// sonic has two decoders. The JIT one compiles machine code for each Go
// type it first meets: about 35 ms of CPU at every start of a filter, more
// than a small input takes to read. The other, the one it uses on arm64,
// compiles in a fraction of that time but reads a record at about half the
// speed. So a type is read by the non-JIT decoder until it has been read
// hotDecodes times; then the JIT decoder compiles it on a goroutine of its
// own and reads it from then on. A run over a few records never compiles;
// a run over many compiles only the types it reads often.
//
// sonic chooses its decoder once, from an environment variable read before
// any package of this module starts; decodeImpl, the choice, is set here
// instead, after sonic's init and before any record is decoded. The names
// are sonic's internals: an upgrade that renames the functions fails the
// build, one that renames the variable fails TestSonicCallsDecode.
//
// The two decoders part on records they refuse: the non-JIT decoder stops
// at a member of the wrong type where the JIT one fills the others, and it
// refuses a number past float64's range even in a member it skips. A
// record the non-JIT decoder refuses is read again by the JIT one, so that
// what is kept of it and how its error is worded do not depend on which
// decoder read it.
//
//go:linkname decodeImpl github.com/bytedance/sonic/internal/decoder/api.decodeImpl
var decodeImpl func(s *string, i *int, f uint64, val any) error

//go:linkname optDecode github.com/bytedance/sonic/internal/decoder/optdec.Decode
func optDecode(s *string, i *int, f uint64, val any) error

//go:linkname jitDecode github.com/bytedance/sonic/internal/decoder/jitdec.Decode
func jitDecode(s *string, i *int, f uint64, val any) error

func init() { decodeImpl = sonicDecode }

// hotDecodes is how many records of a type the non-JIT decoder reads
// before the JIT decoder compiles the type.
const hotDecodes = 1024

// tier is what sonicDecode knows of a type: how often it was read, and
// whether the JIT decoder has compiled it.
type tier struct {
	n   atomic.Int64
	jit atomic.Bool
}

// tiers holds a tier for each type decoded into, by its type word.
var tiers sync.Map

// tierOf is the tier of val's type.
func tierOf(val any) *tier {
	typ := (*[2]unsafe.Pointer)(unsafe.Pointer(&val))[0]
	v, ok := tiers.Load(typ)
	if !ok {
		v, _ = tiers.LoadOrStore(typ, new(tier))
	}
	return v.(*tier)
}

// compile has the JIT decoder compile the type pt points to, the tier's,
// and read it from then on.
func (t *tier) compile(pt reflect.Type) bool {
	if pt == nil || pt.Kind() != reflect.Pointer || decoder.Pretouch(pt.Elem()) != nil {
		return false
	}
	t.jit.Store(true)
	return true
}

// Compiled has the JIT decoder compile the type v points to now and read
// it from then on, as it does once a type is read often, and reports
// whether it does: for a caller that will read many records of the type,
// and for tests that look at where decoded bytes are (the JIT decoder
// leaves raw members in the record's memory, the non-JIT one copies them).
func Compiled(v any) bool { return tierOf(v).compile(reflect.TypeOf(v)) }

func sonicDecode(s *string, i *int, f uint64, val any) error {
	t := tierOf(val)
	if t.jit.Load() {
		return jitDecode(s, i, f, val)
	}
	if t.n.Add(1) == hotDecodes {
		go t.compile(reflect.TypeOf(val)) // the type only: val is not kept
	}
	start := *i
	err := optDecode(s, i, f, val)
	if err == nil {
		return nil
	}
	*i = start
	return jitDecode(s, i, f, val)
}
