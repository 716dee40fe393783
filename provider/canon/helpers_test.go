package canon_test

import (
	"encoding/json"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// obj builds a JSON object from key, value pairs.
func obj(kv ...any) agt.Raw {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// mustNormalize normalizes t as a call of provider and returns it.
func mustNormalize(provider string, t *agt.Tool) *agt.Tool {
	canon.Normalize(provider, t)
	return t
}
