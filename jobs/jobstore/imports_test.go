package jobstore_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDriversKnowOnlyTheContract fails when a store driver or the
// conformance suite comes to import any of cdpmcp's packages but the
// contract's (the queue, the agent, the browser): a driver compiles with
// jobstore alone, as River's drivers with rivertype.
func TestDriversKnowOnlyTheContract(t *testing.T) {
	const mod = "github.com/cdpmcp/cdpmcp/"
	out, err := exec.Command("go", "list", "-deps", mod+"jobs/sqlite", mod+"jobs/postgres", mod+"jobs/storetest").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := []string{"jobs/jobstore", "jobs/sqlite", "jobs/postgres", "jobs/storetest", "internal/tenant"}
	var ours, extra []string
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, mod); ok {
			ours = append(ours, rel)
			if !slices.Contains(allowed, rel) {
				extra = append(extra, rel)
			}
		}
	}
	if len(ours) == 0 || len(extra) > 0 {
		t.Errorf("the drivers import %v of cdpmcp's packages beyond %v (all: %v); a driver needs jobs/jobstore alone", extra, allowed, ours)
	}
}
