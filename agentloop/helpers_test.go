package agentloop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// refOf returns the index of the first element line of a user message that
// contains sub.
func refOf(t *testing.T, user, sub string) int {
	t.Helper()
	_, elems, _ := strings.Cut(user, "6. Interactive elements:\n")
	for _, line := range strings.Split(elems, "\n") {
		if m := refLine.FindStringSubmatch(line); m != nil && strings.Contains(line, sub) {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	t.Fatalf("no element with %q in:\n%s", sub, elems)
	return 0
}

var refLine = regexp.MustCompile(`^(\d+)\[:\]`)

// sectionsInOrder checks that the user message has seed 000 §3.2's sections,
// in its order, with its exact labels.
func sectionsInOrder(t testing.TB, user string, step, max int, withPrev bool) {
	t.Helper()
	want := []string{
		"Current step: " + strconv.Itoa(step) + "/" + strconv.Itoa(max) + "\n",
		"Current date and time: ",
		"\n1. Task: ",
		". \n2. Hints(Optional): \n",
		"\n3. Memory: \n",
		"\n4. Current url: ",
		"\n5. Available tabs:\n",
		"\n6. Interactive elements:\n",
	}
	if withPrev {
		want = append(want, "\n\n**Previous Actions**\nPrevious step: "+strconv.Itoa(step-1)+"/"+strconv.Itoa(max)+"\n", "Previous action 1/")
	}
	if !strings.HasPrefix(user, want[0]) {
		t.Errorf("user message starts %.40q, want %q", user, want[0])
	}
	at := 0
	for _, w := range want {
		i := strings.Index(user[at:], w)
		if i < 0 {
			t.Errorf("user message lacks %q after byte %d:\n%s", w, at, user)
			return
		}
		at += i + len(w)
	}
	if !withPrev && strings.Contains(user, "**Previous Actions**") {
		t.Errorf("step %d has previous actions:\n%s", step, user)
	}
}

// cmpIgnore ignores the named fields of Outcome.
func cmpIgnore(fields ...string) cmp.Option {
	return cmpopts.IgnoreFields(Outcome{}, fields...)
}

// readSteps reads a run's step records.
func readSteps(t testing.TB, out *Outcome) []StepRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out.RunDir, "record.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var steps []StepRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var s struct {
			Type string `json:"type"`
			StepRecord
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		if s.Type == "step" {
			steps = append(steps, s.StepRecord)
		}
	}
	return steps
}

// runDir is where a test's runs leave their records: a temporary directory,
// or $AGENTLOOP_KEEP_RUNS to look at them (reports, prompts) afterwards.
func runDir(t testing.TB) string {
	if d := os.Getenv("AGENTLOOP_KEEP_RUNS"); d != "" {
		return d
	}
	return t.TempDir()
}
