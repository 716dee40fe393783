package claude

// TopKeys is topKeys, for the external tests.
func TopKeys(r []byte) (agent, duration bool) { return topKeys(r) }
