package agt

import "runtime/debug"

// Version is the version of the agt tools: set at link time by the
// Makefile (`git describe --tags --always --dirty` through -ldflags
// "-X github.com/agt-project/agt.Version=…"), else read from the build
// information (the module's version under `go install …@version`, or the
// commit it was built from), else "devel".
var Version string

func init() {
	if Version == "" {
		Version = buildVersion(debug.ReadBuildInfo())
	}
}

// buildVersion is the version told by build information.
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
