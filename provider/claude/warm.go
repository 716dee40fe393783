package claude

import (
	"reflect"

	"github.com/agt-project/agt"
	"github.com/bytedance/sonic/decoder"
	"github.com/bytedance/sonic/option"
)

// Warm prepares the decoding of a record (provider.Warmer): its type, with
// the relayed message and the live output's fields, takes the decoder over
// 20 ms to compile, which the first line's decoding would otherwise wait
// for. A full parse also decodes content blocks.
func (Provider) Warm(format string, opts agt.Options) {
	// the type itself: the types it holds that are compiled apart are
	// compiled when a line holds them, as they would be
	flat := option.WithCompileRecursiveDepth(0)
	decoder.Pretouch(reflect.TypeFor[record](), flat)
	if !opts.Usage {
		decoder.Pretouch(reflect.TypeFor[[]block](), flat)
	}
}
