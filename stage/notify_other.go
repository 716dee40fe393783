//go:build !linux

package stage

// notifier is polling only, here: followed files are looked at every poll.
type notifier struct{}

func newNotifier() *notifier { return nil }

func (*notifier) watch(string) (<-chan struct{}, func()) { return nil, func() {} }

func (*notifier) close() {}
