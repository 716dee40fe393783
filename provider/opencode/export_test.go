package opencode

// SetChunkBytes sets the size past which a stored session is handed on in
// parts, for a test; the returned function puts it back.
func SetChunkBytes(n int) func() {
	old := chunkBytes
	chunkBytes = n
	return func() { chunkBytes = old }
}

// ReadDB reads every session of an OpenCode database: sessions in order of
// creation, messages by time of creation and id, parts by id.
func ReadDB(path string) ([]Stored, error) {
	var out []Stored
	err := WalkDB(path, func(s Stored) error {
		out = append(out, s)
		return nil
	})
	return out, err
}

// ReadStorage reads every session of an OpenCode storage folder (dir is the
// folder holding storage/, or storage/ itself): messages and parts in
// OpenCode's order, that of their ids. Problems that belong to no record
// (an unreadable folder, parts of no known message) are returned beside the
// sessions.
func ReadStorage(dir string) ([]Stored, []error) {
	var out []Stored
	errs := WalkStorage(dir, func(s Stored) error {
		out = append(out, s)
		return nil
	})
	return out, errs
}
