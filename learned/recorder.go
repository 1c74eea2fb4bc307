package learned

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
)

// minTemplated is the shortest param value put back as {{param}} into a
// text the page showed: shorter ones ("2") would be found everywhere.
const minTemplated = 4

// Recorder builds a script from the steps a session takes, safe for
// concurrent use. The zero value is not usable; call NewRecorder.
type Recorder struct {
	// Redact, if set, finds secrets the session knows (what went into a
	// password field, --secret-env values): a value it changes is a secret
	// param, a page text it changes is not kept.
	Redact func(string) string

	mu     sync.Mutex
	src    Source
	steps  []Step
	params map[string]Param
	values map[string]string // non-secret params' values, to put back into texts
	notes  []string
}

// NewRecorder starts a script learned from a session of kind from
// ("record", "agent") doing task.
func NewRecorder(from, task string) *Recorder {
	return &Recorder{src: Source{From: from, Task: task, Created: time.Now().UTC().Truncate(time.Second)},
		params: map[string]Param{}, values: map[string]string{}}
}

// Len is the number of steps so far.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.steps)
}

// Add appends a step. Its texts from the page (Expect.Text) keep none of
// the session's secrets, and a param's value in them becomes the param.
func (r *Recorder) Add(st Step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := st.Expect; e != nil {
		e.Text = r.templateLocked(r.clean(e.Text))
		e.Title = r.clean(e.Title)
		e.URL = r.clean(e.URL)
		if *e == (Expect{}) {
			st.Expect = nil
		}
	}
	// A page's own braces in an address are not params.
	st.URL = strings.ReplaceAll(st.URL, "{{", "%7B%7B")
	st.Intent = intent(&st)
	r.steps = append(r.steps, st)
}

// Note records something the session did that the script does not repeat.
func (r *Recorder) Note(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.notes) < 50 {
		r.notes = append(r.notes, fmt.Sprintf("after step %d: ", len(r.steps))+fmt.Sprintf(format, args...))
	}
}

// Value turns a value typed or chosen into a field into a param and returns
// its reference ("{{email}}"). secret says the field is secret; a value the
// session knows as secret is one too. A non-secret keeps the value as its
// default; the same value for the same field reuses its param.
func (r *Recorder) Value(field *locate.Description, value string, secret bool) string {
	if r.Redact != nil && r.Redact(value) != value {
		secret = true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	what := ""
	base := "value"
	if field != nil {
		what = field.String()
		for _, s := range []string{field.Label, field.Name, field.Placeholder, field.Field} {
			if n := slug(s); n != "" {
				base = n
				break
			}
		}
	}
	if secret && base == "value" {
		base = "secret"
	}
	name := base
	for i := 2; ; i++ {
		p, taken := r.params[name]
		if !taken {
			break
		}
		if !secret && !p.Secret && p.For == what && r.values[name] == value {
			return "{{" + name + "}}"
		}
		name = fmt.Sprintf("%s_%d", base, i)
	}
	p := Param{Secret: secret, For: what}
	if !secret {
		p.Default = value
		r.values[name] = value
	}
	r.params[name] = p
	return "{{" + name + "}}"
}

// clean drops a page text that shows a secret.
func (r *Recorder) clean(s string) string {
	if r.Redact != nil && r.Redact(s) != s {
		return ""
	}
	return s
}

// templateLocked puts params back into a text the page showed: "Thanks,
// Ada" after Ada was typed is "Thanks, {{name}}", right with any name.
func (r *Recorder) templateLocked(s string) string {
	if s == "" {
		return s
	}
	s = strings.ReplaceAll(s, "{{", "{ {") // a page's own braces are not params
	return Values(r.values).Template(s, nil)
}

// Script returns the script so far, or nil when no step was learned.
func (r *Recorder) Script() *Script {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.steps) == 0 {
		return nil
	}
	s := &Script{Format: Format, Version: Version, Source: r.src, Steps: append([]Step(nil), r.steps...),
		Notes: append([]string(nil), r.notes...)}
	if len(r.params) > 0 {
		s.Params = map[string]Param{}
		for k, v := range r.params {
			s.Params[k] = v
		}
	}
	return s
}

// SetSuccess records whether the session finished its task.
func (r *Recorder) SetSuccess(ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.src.Success = &ok
}
