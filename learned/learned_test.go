package learned

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
	"github.com/google/go-cmp/cmp"
)

func order(t *testing.T) *Script {
	t.Helper()
	s, err := Read(filepath.Join("testdata", "order.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A recording's script reads back as it was written.
func TestReadWriteRoundTrip(t *testing.T) {
	s := order(t)
	path, n, err := s.WriteNew(filepath.Join(t.TempDir(), FileName), nil)
	if err != nil || n != 9 {
		t.Fatalf("WriteNew: %d, %v", n, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v %v", fi, err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if _, _, err := s.WriteNew(path, nil); err == nil {
		t.Error("WriteNew wrote over a file")
	}
}

// Check refuses what a replay could not use, saying which step and why.
func TestCheckRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Script)
		want string
	}{
		{"format", func(s *Script) { s.Format = "other" }, "not a learned script"},
		{"newer", func(s *Script) { s.Version = 2 }, "newer than this cdpmcp reads"},
		{"no steps", func(s *Script) { s.Steps = nil }, "no steps"},
		{"secret default", func(s *Script) { p := s.Params["password"]; p.Default = "x"; s.Params["password"] = p }, `param "password" is secret and has a default`},
		{"bad name", func(s *Script) { s.Params["Bad Name"] = Param{} }, `param "Bad Name"`},
		{"undeclared", func(s *Script) { s.Steps[1].Value = "{{nope}}" }, "step 2 (fill): {{nope}} is not among"},
		{"no target", func(s *Script) { s.Steps[3].Target = nil }, "step 4 (click): target needs a role"},
		{"empty target", func(s *Script) { s.Steps[3].Target = &locate.Description{} }, "step 4 (click): target needs a role"},
		{"no url", func(s *Script) { s.Steps[0].URL = "" }, "step 1 (navigate): url is missing"},
		{"unknown", func(s *Script) { s.Steps[0].Action = "hover" }, "step 1 (hover): unknown action"},
		{"no values", func(s *Script) { s.Steps[6].Values = nil }, "step 7 (select): values is missing"},
	} {
		s := order(t)
		c.edit(s)
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := Parse([]byte(`{"format":"cdpmcp-script","version":1,"steps":[],"extra":1}`)); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("an unknown field: %v", err)
	}
}

// Bind gives each param its value: given, else its default; a secret must
// be given, a name the script does not know is refused.
func TestBind(t *testing.T) {
	s := order(t)
	v, err := s.Bind(map[string]string{"password": "pw-1234", "full_name": "Grace"})
	if err != nil {
		t.Fatal(err)
	}
	want := Values{"password": "pw-1234", "full_name": "Grace", "email": "ada@example.com", "quantity": "3", "delivery": "express"}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("Bind (-want +got):\n%s", diff)
	}
	if got := v.Expand("Thanks, {{full_name}}! {{unknown}}"); got != "Thanks, Grace! {{unknown}}" {
		t.Errorf("Expand = %q", got)
	}
	if got := s.Secrets(v); len(got) != 1 || got[0] != "pw-1234" {
		t.Errorf("Secrets = %v", got)
	}
	if _, err := s.Bind(nil); err == nil || !strings.Contains(err.Error(), "give the secret param password") {
		t.Errorf("no secret: %v", err)
	}
	if _, err := s.Bind(map[string]string{"password": "x", "emial": "y"}); err == nil || !strings.Contains(err.Error(), "no param emial; its params: delivery, email, full_name, password (secret), quantity") {
		t.Errorf("a typo: %v", err)
	}
}

// Rebase moves a script to another copy of its site: the addresses under
// the start's folder move, others stay.
func TestRebase(t *testing.T) {
	s := order(t)
	s.Steps = append(s.Steps, Step{Action: Navigate, URL: "https://elsewhere.example/x"})
	if err := s.Rebase("https://shop.example/v2/signin?from=mail"); err != nil {
		t.Fatal(err)
	}
	got := []string{s.Steps[0].URL, s.Steps[0].Expect.URL, s.Steps[3].Expect.URL, s.Steps[8].Expect.URL, s.Steps[9].URL}
	want := []string{"https://shop.example/v2/signin?from=mail", "https://shop.example/v2/signin", "https://shop.example/v2/order",
		"https://shop.example/v2/done", "https://elsewhere.example/x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Rebase (-want +got):\n%s", diff)
	}
	if err := s.Rebase("not a url"); err == nil {
		t.Error("Rebase to no URL")
	}
	for _, c := range []struct {
		want, got string
		same      bool
	}{
		{"https://a.example/done", "https://a.example/done?id=4#x", true},
		{"https://a.example/done/", "https://a.example/done", true},
		{"https://a.example/done", "https://b.example/done", false},
		{"https://a.example/done", "https://a.example/order", false},
	} {
		if SamePage(c.want, c.got) != c.same {
			t.Errorf("SamePage(%s, %s) = %t", c.want, c.got, !c.same)
		}
	}
}

// The recorder names params after their fields, keeps secrets without
// their values (a value the session knows as secret is one too), reuses a
// param for the same value in the same field, and puts params back into the
// texts a page showed.
func TestRecorder(t *testing.T) {
	r := NewRecorder("record", "")
	r.Redact = func(s string) string { return strings.ReplaceAll(s, "tok-SECRET", "[secret]") }
	email := &locate.Description{Role: "textbox", Name: "E-mail address", Label: "E-mail address"}
	pw := &locate.Description{Tag: "input", Type: "password", Name: "Password", Label: "Password"}
	api := &locate.Description{Role: "textbox", Name: "API key"}
	got := []string{
		r.Value(email, "ada@example.com", false),
		r.Value(pw, "hunter2", true),
		r.Value(api, "tok-SECRET", false),
		r.Value(email, "ada@example.com", false),
		r.Value(email, "grace@example.com", false),
		r.Value(nil, "x", true),
		r.Value(&locate.Description{Role: "textbox", Name: "2nd line"}, "y", false),
	}
	want := []string{"{{e_mail_address}}", "{{password}}", "{{api_key}}", "{{e_mail_address}}", "{{e_mail_address_2}}", "{{secret}}", "{{p2nd_line}}"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Value (-want +got):\n%s", diff)
	}
	r.Add(Step{Action: Navigate, URL: "https://a.example/{{x}}"})
	r.Add(Step{Action: Click, Target: email, Expect: &Expect{Text: "Welcome ada@example.com {{not a param}}", Title: "tok-SECRET inbox"}})
	s := r.Script()
	if s.Params["password"].Secret != true || s.Params["password"].Default != "" || !s.Params["api_key"].Secret || s.Params["e_mail_address"].Default != "ada@example.com" {
		t.Errorf("params: %+v", s.Params)
	}
	if u := s.Steps[0].URL; u != "https://a.example/%7B%7Bx}}" {
		t.Errorf("a page's braces in an address: %s", u)
	}
	if e := s.Steps[1].Expect; e.Text != "Welcome {{e_mail_address}} { {not a param}}" || e.Title != "" {
		t.Errorf("expect: %+v", e)
	}
	if err := s.Check(); err != nil {
		t.Errorf("the recorder's script: %v", err)
	}
	b, _ := s.Encode(r.Redact)
	if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "tok-SECRET") {
		t.Errorf("a secret in the file:\n%s", b)
	}
	if NewRecorder("agent", "t").Script() != nil {
		t.Error("a script of no steps")
	}
}

// FuzzParse: a script file from anywhere never panics the reader, and what
// it accepts checks clean.
func FuzzParse(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "order.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"format":"cdpmcp-script","version":1,"steps":[{"action":"wait","text":"{{a}}"}],"params":{"a":{}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Parse(b)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Errorf("Parse accepted a script Check refuses: %v", err)
		}
		for _, st := range s.Steps {
			_ = st.Describe()
		}
	})
}

// A run's values go back into a text as their params: the longest first,
// never inside a {{param}} the text names already, and not a short value or
// a skipped one.
func TestTemplate(t *testing.T) {
	v := Values{"query": "teapot", "q2": "tea", "color": "teapot blue", "name": "search", "pin": "1234"}
	got := v.Template("Results for teapot blue, teapot and {{search}}: 1234", func(n string) bool { return n == "pin" })
	if want := "Results for {{color}}, {{query}} and {{search}}: 1234"; got != want {
		t.Errorf("Template = %q, want %q", got, want)
	}
}
