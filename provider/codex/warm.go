package codex

import (
	"reflect"

	"github.com/agt-project/agt"
	"github.com/bytedance/sonic/decoder"
	"github.com/bytedance/sonic/option"
)

// Warm prepares the decoding of the record types of format
// (provider.Warmer): a rollout's line type, with its payload union, takes
// the decoder over 10 ms to compile.
func (Provider) Warm(format string, _ agt.Options) {
	// the type itself: the types it holds that are compiled apart are
	// compiled when a line holds them, as they would be
	flat := option.WithCompileRecursiveDepth(0)
	switch format {
	case FormatRollout:
		decoder.Pretouch(reflect.TypeFor[rolloutLine](), flat)
	case FormatRolloutLegacy:
		decoder.Pretouch(reflect.TypeFor[rolloutLine](), flat)
		decoder.Pretouch(reflect.TypeFor[item](), flat)
	}
}
