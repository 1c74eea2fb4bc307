// Package feedback defines the compact answer every action tool gives (seed 003's
// ActionFeedback) and the pure summarising that builds it from raw observations.
package feedback

import (
	"bytes"
	"encoding/json"
)

// Feedback is what an action did, in as few tokens as possible. Empty fields are
// left out of the JSON; act, ok and code are always present.
type Feedback struct {
	Act  string `json:"act"`
	Ref  string `json:"ref,omitempty"`
	OK   bool   `json:"ok"`
	Code int    `json:"code"`
	// Msg says what went wrong; set only when OK is false.
	Msg    string   `json:"msg,omitempty"`
	Delta  *Delta   `json:"delta,omitempty"`
	Errors []string `json:"errors,omitempty"`
	Net    []Net    `json:"net,omitempty"`
	// NetMore counts what Net leaves out: failed loads of images, styles,
	// scripts and the like, by kind ("+23 failed: 12 img, 6 css, 5 script").
	NetMore string `json:"netMore,omitempty"`
	// Dialog is a JavaScript dialog the action opened (or found open).
	Dialog *Dialog `json:"dialog,omitempty"`
	// Opened lists tabs the action opened, as "p3 https://…"; delta.page names
	// the last one.
	Opened []string `json:"opened,omitempty"`
	// Before is what the page did on its own since the last answer, before
	// the action began (before.go).
	Before *Before `json:"before,omitempty"`
	// Downloads are files the action (or the page since the last answer)
	// downloaded.
	Downloads []Download `json:"downloads,omitempty"`
	// Timing is the action's duration in milliseconds.
	Timing int64  `json:"timing"`
	Hint   string `json:"hint,omitempty"`
	// Incomplete, for programs rather than models, says the action happened
	// but did not finish (the page arrived but did not load in time, or got
	// stuck in a script); the message is among Errors too.
	Incomplete string `json:"-"`
	// Followed, for programs and tests, says the answer waited a quiet
	// window for what the action's calls (fetch, XMLHttpRequest) or a submit
	// the page took over in script brought; an action that started neither
	// answers without it.
	Followed bool `json:"-"`
}

// Delta is what changed on the page, keyed by element ref.
type Delta struct {
	URL   string `json:"url,omitempty"`
	Title string `json:"title,omitempty"`
	// Status is the HTTP status of the document that arrived, when it is an
	// error (404, 500…): the page shows the server's error page.
	Status int `json:"status,omitempty"`
	// Page is the id of a tab the action opened.
	Page string `json:"page,omitempty"`
	// Value is the value a fill or selectOption left in the field.
	Value   string      `json:"value,omitempty"`
	Text    [][2]string `json:"text,omitempty"`
	Attrs   [][3]any    `json:"attrs,omitempty"`
	Removed []string    `json:"removed,omitempty"`
	Added   [][2]string `json:"added,omitempty"`
	// Flash is text that appeared and went away again during the action (a
	// toast, a "saved" notice).
	Flash []string `json:"flash,omitempty"`
	// More counts changes left out to keep the answer short.
	More int `json:"more,omitempty"`
}

// Empty reports whether the delta says nothing.
func (d *Delta) Empty() bool {
	return d == nil || (d.URL == "" && d.Title == "" && d.Status == 0 && d.Page == "" && d.Value == "" && len(d.Text) == 0 &&
		len(d.Attrs) == 0 && len(d.Removed) == 0 && len(d.Added) == 0 && len(d.Flash) == 0 && d.More == 0)
}

// Net is one request the action caused: its URL (relative to the page's origin
// where possible) and status; E is the error of a failed request.
type Net struct {
	M string `json:"m,omitempty"` // method, when not GET
	U string `json:"u"`
	S int    `json:"s,omitempty"`
	E string `json:"e,omitempty"`
	// Pending is set for a request still waiting for its answer when the
	// action returned: its result may show later (waitFor it).
	Pending bool `json:"pending,omitempty"`
}

// Download is a file the browser saved for the page.
type Download struct {
	Name string `json:"name"`
	// Size is the file's size in bytes (so far, while State is inProgress).
	Size int64  `json:"size"`
	MIME string `json:"mime,omitempty"`
	Path string `json:"path,omitempty"`
	// State is empty for a finished download; "inProgress" for one still
	// arriving when the answer was given, "canceled" for one the browser or
	// a policy stopped.
	State string `json:"state,omitempty"`
}

// Dialog describes a JavaScript dialog.
type Dialog struct {
	Type string `json:"type"`
	Msg  string `json:"msg"`
	// Default is a prompt's default text, what OK answers with no text given.
	Default string `json:"default,omitempty"`
	// Closed says how the server answered a dialog no one else did
	// ("dismissed", "accepted"): by the dialog policy, or because a
	// navigation left the page as a person would.
	Closed string `json:"closed,omitempty"`
}

// JSON encodes the feedback compactly, without escaping HTML characters.
func (f *Feedback) JSON() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return `{"act":"` + f.Act + `","ok":false,"code":6,"msg":"feedback could not be encoded"}`
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
