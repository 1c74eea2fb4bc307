package actionlock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each action gets a group of its own, and its end hands over that group and
// the frames it touched, once; outside an action the group is the default.
func TestLockGroups(t *testing.T) {
	var l Lock[string]
	if g := l.Group(); g != "cdpmcp" {
		t.Errorf("group outside an action = %q, want cdpmcp", g)
	}
	var got []string
	release := func(group string, frames map[string]bool) {
		got = append(got, group)
		for f := range frames {
			got = append(got, f)
		}
	}
	l.Begin()
	l.Touch("frame A")
	l.End(release)
	l.Begin()
	if g := l.Group(); g != "cdpmcp-2" {
		t.Errorf("second action's group = %q, want cdpmcp-2", g)
	}
	l.End(release)
	if diff := cmp.Diff([]string{"cdpmcp-1", "frame A", "cdpmcp-2"}, got); diff != "" {
		t.Errorf("released (-want +got):\n%s", diff)
	}
}
