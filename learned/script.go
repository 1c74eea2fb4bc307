// Package learned is the learned script: what a session did (a recording
// of primitive calls, or a run_browser_agent run), in terms that survive a
// redesign (each element as a person would find it again, never a session's
// ref), with its values as named parameters (a secret never with its value)
// and what each step led to, so that a replay knows when it went wrong.
// script.json is its file; Recorder builds one from the actions a session
// ran. It knows nothing of MCP, models or how a script is replayed
// (learned/replay).
package learned

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
)

// Format names the file format; Version is the newest version this cdpmcp
// writes and reads. A file of a newer version is refused with a hint.
const (
	Format  = "cdpmcp-script"
	Version = 1
)

// FileName is the name a script has beside a session's other artifacts.
const FileName = "script.json"

// maxSteps bounds a script's steps.
const maxSteps = 1000

// Script is a learned script: a file's whole content.
type Script struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Source  Source `json:"source"`
	// Params are the values the steps take, by name: a step's value
	// "{{email}}" is param email's.
	Params map[string]Param `json:"params,omitempty"`
	// Steps start with a navigate: the address the session started from.
	Steps []Step `json:"steps"`
	// Notes say what a session did that the script does not repeat (a drag,
	// an action on another tab).
	Notes []string `json:"notes,omitempty"`
}

// Source says where a script was learned.
type Source struct {
	// From is "record", "agent" or "repair" (a replay that had steps redone
	// by the agent).
	From string `json:"from"`
	// Task is what the agent was asked.
	Task    string    `json:"task,omitempty"`
	Created time.Time `json:"created"`
	// Success is false for an agent run that did not finish its task.
	Success *bool `json:"success,omitempty"`
}

// Param is one named value. A secret has no default: it is given at each
// run (a job's params, --param-env), and kept out of every file and answer.
type Param struct {
	Secret  bool   `json:"secret,omitempty"`
	Default string `json:"default,omitempty"`
	// For says which field took it, e.g. `textbox "Email"`.
	For string `json:"for,omitempty"`
}

// Step actions.
const (
	Navigate = "navigate"
	Click    = "click"
	Fill     = "fill"
	Type     = "type"
	Select   = "select"
	Press    = "press"
	Upload   = "upload"
	Wait     = "wait"
	Extract  = "extract"
)

// Step is one thing the session did. Which fields count depends on Action.
type Step struct {
	Action string `json:"action"`
	// Intent says the step in words, for a person and for the agent that
	// redoes a step that no longer matches.
	Intent string `json:"intent,omitempty"`
	// URL: navigate.
	URL string `json:"url,omitempty"`
	// Target is the element: click, fill, type, select, upload; press and
	// wait may name one.
	Target *locate.Description `json:"target,omitempty"`
	// Value: fill and type (text, true/false for a check box, an option);
	// may hold {{param}}s.
	Value string `json:"value,omitempty"`
	// Values: select.
	Values []string `json:"values,omitempty"`
	// Clear and Submit: type (replace what is there; press Enter after).
	Clear  bool `json:"clear,omitempty"`
	Submit bool `json:"submit,omitempty"`
	// Key: press (Enter, Tab, Control+A).
	Key string `json:"key,omitempty"`
	// ClickCount and Modifiers: click.
	ClickCount int      `json:"clickCount,omitempty"`
	Modifiers  []string `json:"modifiers,omitempty"`
	// Files: upload, paths on the machine that replays.
	Files []string `json:"files,omitempty"`
	// Text and State: wait (a text, or Target, to be visible, hidden…).
	Text  string `json:"text,omitempty"`
	State string `json:"state,omitempty"`
	// Selector and Format: extract (CSS scope, markdown or text).
	Selector string `json:"selector,omitempty"`
	Format   string `json:"format,omitempty"`
	// Expect is what the step led to.
	Expect *Expect `json:"expect,omitempty"`
}

// Expect is what a step led to; a replay checks each part it names.
type Expect struct {
	// URL is the address the tab was at after the step (compared by path:
	// the query and the site may differ).
	URL string `json:"url,omitempty"`
	// Title is the page's title after a step that loaded a page.
	Title string `json:"title,omitempty"`
	// Text appeared (a heading, a message); a number in it matches any.
	Text string `json:"text,omitempty"`
}

// Parse reads and checks a script file's content.
func Parse(b []byte) (*Script, error) {
	var s Script
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("not a learned script (%v); give the script.json a recording or an agent run wrote", err)
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Check reports what makes s unusable: a format or version this cdpmcp does
// not read, a step without what its action needs, a param used but not
// declared, a secret with a default.
func (s *Script) Check() error {
	switch {
	case s.Format != Format:
		return fmt.Errorf("format %q is not %q: not a learned script", s.Format, Format)
	case s.Version > Version:
		return fmt.Errorf("script version %d is newer than this cdpmcp reads (%d): upgrade cdpmcp", s.Version, Version)
	case s.Version < 1:
		return fmt.Errorf("script version %d: versions start at 1", s.Version)
	case len(s.Steps) == 0:
		return fmt.Errorf("the script has no steps")
	case len(s.Steps) > maxSteps:
		return fmt.Errorf("the script has %d steps; at most %d", len(s.Steps), maxSteps)
	}
	for name, p := range s.Params {
		if !paramName.MatchString(name) {
			return fmt.Errorf("param %q: use lower-case letters, digits and _ (starting with a letter)", name)
		}
		if p.Secret && p.Default != "" {
			return fmt.Errorf("param %q is secret and has a default: a secret's value is never kept in a script", name)
		}
	}
	for i := range s.Steps {
		if err := s.checkStep(&s.Steps[i]); err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, s.Steps[i].Action, err)
		}
	}
	return nil
}

func (s *Script) checkStep(st *Step) error {
	needTarget := func() error {
		if st.Target == nil || (st.Target.Role == "" && st.Target.Tag == "") {
			return fmt.Errorf(`target needs a role (e.g. {"role":"button","name":"Save"}) or a tag`)
		}
		return nil
	}
	var err error
	switch st.Action {
	case Navigate:
		if st.URL == "" {
			err = fmt.Errorf("url is missing")
		}
	case Click, Upload:
		err = needTarget()
		if err == nil && st.Action == Upload && len(st.Files) == 0 {
			err = fmt.Errorf("files is missing")
		}
	case Fill, Type:
		err = needTarget()
	case Select:
		err = needTarget()
		if err == nil && len(st.Values) == 0 {
			err = fmt.Errorf("values is missing")
		}
	case Press:
		if st.Key == "" {
			err = fmt.Errorf("key is missing")
		}
	case Wait:
		if st.Text == "" && st.Target == nil {
			err = fmt.Errorf("give text or target")
		}
	case Extract:
	default:
		err = fmt.Errorf("unknown action; use navigate, click, fill, type, select, press, upload, wait or extract")
	}
	if err != nil {
		return err
	}
	for _, v := range st.templated() {
		for _, name := range refsIn(v) {
			if _, ok := s.Params[name]; !ok {
				return fmt.Errorf("{{%s}} is not among the script's params", name)
			}
		}
	}
	return nil
}

// templated lists the step's texts that may hold {{param}}s.
func (st *Step) templated() []string {
	out := append([]string{st.URL, st.Value, st.Text}, st.Values...)
	out = append(out, st.Files...)
	if st.Expect != nil {
		out = append(out, st.Expect.Text)
	}
	return out
}

// Describe says a step in words: its Intent, or one made from its parts.
func (st *Step) Describe() string {
	if st.Intent != "" {
		return st.Intent
	}
	return intent(st)
}

func intent(st *Step) string {
	what := ""
	if st.Target != nil {
		what = " " + st.Target.String()
	}
	switch st.Action {
	case Navigate:
		return "open " + st.URL
	case Fill, Type:
		return fmt.Sprintf("%s %s into%s", st.Action, quoteValue(st.Value), what)
	case Select:
		return fmt.Sprintf("select %s in%s", strings.Join(st.Values, ", "), what)
	case Press:
		if what != "" {
			return "press " + st.Key + " in" + what
		}
		return "press " + st.Key
	case Upload:
		return "upload " + strings.Join(st.Files, ", ") + " into" + what
	case Wait:
		if st.Text != "" {
			return fmt.Sprintf("wait for the text %q", st.Text)
		}
		return "wait for" + what
	case Extract:
		return "read the page's content"
	}
	return st.Action + what
}

// quoteValue shows a value in an intent; a param stays a param.
func quoteValue(v string) string {
	if v == "" {
		return `""`
	}
	return fmt.Sprintf("%q", v)
}
