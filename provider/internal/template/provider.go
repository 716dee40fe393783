// Package template is a provider to copy when adding one
// (docs/adding-a-provider.md): every file a provider folder has, each
// holding what its name says, for a made-up format of JSON lines
// ("template-jsonl") that names each record's type in member "tpl":
//
//	{"tpl":"session","id":"s1","ts":"2026-01-02T03:04:05Z"}
//	{"tpl":"user","ts":"…","text":"open a.go"}
//	{"tpl":"call","ts":"…","id":"c1","name":"open_file","input":{"filename":"a.go"}}
//	{"tpl":"result","ts":"…","id":"c1","output":"package a"}
//	{"tpl":"assistant","ts":"…","model":"m-1","text":"done"}
//	{"tpl":"usage","model":"m-1","input":10,"output":5}
//
// It is not in the registry: the test of this folder registers it, which
// shows that a provider is one folder and one registry row.
package template

import "github.com/agt-project/agt"

// Format names.
const FormatJSONL = "template-jsonl"

// Provider is the template provider: its registry row is
// provider.Register(template.Provider{}).
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "template" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Template"}
}

// Formats lists the formats the provider reads; the first is the default.
func (Provider) Formats() []string { return []string{FormatJSONL} }

// NewParser returns a parser for one input in format.
func (Provider) NewParser(string, agt.Options) agt.Parser {
	return &parser{calls: map[string]string{}}
}
