package opencode

// SetChunkBytes sets the size past which a stored session is handed on in
// parts, for a test; the returned function puts it back.
func SetChunkBytes(n int) func() {
	old := chunkBytes
	chunkBytes = n
	return func() { chunkBytes = old }
}
