package agentloop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RecoverReport on records a run can leave: each kind of ending says what
// it should, and a record with nothing of the run gets no report.
func TestRecoverReportFromRecords(t *testing.T) {
	t.Parallel()
	const start = `{"type":"start","time":"2026-11-30T10:00:00Z","task":"Find the price","system":"SYS","config":{"maxSteps":5}}` + "\n"
	step := func(n int, actions string) string {
		return fmt.Sprintf(`{"type":"step","step":%d,"time":"2026-11-30T10:00:0%[1]dZ","url":"http://shop.test/%[1]d","user":"U",`+
			`"brain":{"important_contents":"note %[1]d"},"actions":[%s],"serverMs":1,"modelMs":2,"actionsMs":3}`+"\n", n, actions)
	}
	const scroll, done = `{"name":"scroll","args":{}}`, `{"name":"done","args":{"result":"It costs $3","success":true}}`
	for _, tc := range []struct {
		name, record string
		want         []string // in the report
		err          string
	}{
		{"killed before step 1 was recorded", start, []string{"interrupted", "the server stopped during step 1 of 5, before any step was recorded; no final answer"}, ""},
		{"killed in step 3, a line cut short", start + step(1, scroll) + step(2, scroll) + `{"type":"step","st`,
			[]string{"the server stopped during step 3 of 5 (the record ends after step 2); no final answer", "note 1\nnote 2", `id="step-2"`}, ""},
		{"killed as it ended", start + step(1, done),
			[]string{"the server stopped after step 1 of 5, as the run was ending; no final answer was returned", "The model&#39;s last answer said done: It costs $3"}, ""},
		{"killed before its report", start + step(1, done) +
			`{"type":"end","time":"2026-11-30T10:00:09Z","outcome":{"result":"It costs $3","success":true,"steps":1,"stop":"done"},"state":{"task":"Find the price","max_steps":5}}` + "\n",
			[]string{`<span class="badge">success</span> <b>done</b>`, "It costs $3", "made from the run's record.jsonl"}, ""},
		{"empty record", "", nil, "no start line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, recordName), []byte(tc.record), 0o600); err != nil {
				t.Fatal(err)
			}
			path, err := RecoverReport(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				if _, err := os.Stat(filepath.Join(dir, reportName)); err == nil {
					t.Error("a report was written")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("the report lacks %q", w)
				}
			}
			if _, err := RecoverReport(dir); !errors.Is(err, errReportExists) {
				t.Errorf("a second RecoverReport: %v, want errReportExists", err)
			}
		})
	}
}
