package continuedev

import "github.com/agt-project/agt"

// tokenLine is one line of the token log.
type tokenLine struct {
	Model           string    `json:"model"`
	Provider        string    `json:"provider"`
	PromptTokens    agt.Count `json:"promptTokens"`
	GeneratedTokens agt.Count `json:"generatedTokens"`
	Timestamp       agt.Raw   `json:"timestamp"`
	SessionID       string    `json:"sessionId"`
}

// tokensParser reads the token log.
type tokensParser struct{}

// Decode reads one line.
func (tokensParser) Decode(rec []byte) (any, error) {
	l := &tokenLine{}
	if err := agt.Decode(rec, l); err != nil {
		return nil, err
	}
	return l, nil
}

// Apply emits the line's usage: in the session it names, else in the
// session named after the log.
func (tokensParser) Apply(em *agt.Emitter, v any) {
	l, ok := v.(*tokenLine)
	if !ok {
		return
	}
	if em.Current() == "" {
		em.Session(em.Fallback())
	}
	u := &agt.Usage{Scope: agt.ScopeCall, Input: int64(l.PromptTokens), Output: int64(l.GeneratedTokens)}
	u.Sum()
	em.Emit(agt.Event{NativeSession: l.SessionID, TS: msTime(l.Timestamp), Kind: agt.KindUsage, Model: l.Model, Usage: u}, "", "usage")
}

// Finish has nothing held back.
func (tokensParser) Finish(*agt.Emitter) {}
