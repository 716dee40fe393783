package agt

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, true, "v0.2.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, true, "0123456789ab-dirty"},
		{&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, true, "abc"},
	} {
		if got := buildVersion(c.info, c.ok); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info, got, c.want)
		}
	}
	if Version == "" {
		t.Error("Version is empty")
	}
}
