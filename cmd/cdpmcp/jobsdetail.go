package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// maxResultShown is as much of a job's result as a row of `cdpmcp jobs`
// shows; --json gives it whole.
const maxResultShown = 400

// printJobDetails prints, under a job's row, what a person at the shell acts
// on: the live view's link of a job waiting for them, and the result of a job
// that has one (an extract job's data, a custom job's answer).
func printJobDetails(w io.Writer, j *jobs.Job) {
	if j.State == jobs.WaitingForHuman && j.HandoffURL != "" {
		fmt.Fprintf(w, "    live view: %s (open it to take over the tab, then press Done)\n", j.HandoffURL)
	}
	if len(j.Result) == 0 || string(j.Result) == "null" {
		return
	}
	var b bytes.Buffer
	if json.Compact(&b, j.Result) != nil {
		b.Reset()
		b.Write(j.Result)
	}
	s := b.String()
	if len(s) > maxResultShown {
		s = fmt.Sprintf("%s… (%d more bytes: cdpmcp jobs --json)", s[:runeStartIn(s, maxResultShown)], len(s)-runeStartIn(s, maxResultShown))
	}
	fmt.Fprintf(w, "    result: %s\n", s)
}

// withJobDetails adds to a job's JSON line its live-view link and result,
// when it has them.
func withJobDetails(line []byte, j *jobs.Job) []byte {
	if j.HandoffURL == "" && (len(j.Result) == 0 || string(j.Result) == "null") {
		return line
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return line
	}
	if j.HandoffURL != "" {
		fields["handoffUrl"], _ = json.Marshal(j.HandoffURL)
	}
	if len(j.Result) > 0 && json.Valid(j.Result) {
		fields["result"] = j.Result
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return line
	}
	return out
}

// runeStartIn moves i back to the start of the character it falls in.
func runeStartIn(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
