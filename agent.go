package agt

// Agent is what a provider declares about the agent whose logs it reads,
// beside its parsers: the facts the rest of agt takes from the registry
// instead of keeping lists of provider names.
type Agent struct {
	// Display is the agent's name as its makers write it ("Claude Code"),
	// which exports name the agent by.
	Display string
	// Vendor is the gen_ai.provider.name (OpenTelemetry's GenAI
	// conventions) of the API the agent calls by default, for a model
	// whose name does not tell its vendor; "" for an agent with no default
	// vendor (one that runs whatever model it is given).
	Vendor string
	// Docs are the file endings of logs that documents share (an Aider
	// chat history is Markdown): a folder walk reads such files too, and
	// one that no provider recognises is left out silently.
	Docs []string
	// Stores are the file endings of the databases the agent keeps its
	// sessions in (".db"): a folder walk asks the providers to claim them.
	Stores []string
}
