package secrets

import "testing"

// A value entered into a page that showed it already keeps the page's words
// and cdpmcp's markup as they are, while an echo of it in other words, a
// field's value, a URL parameter and a JSON value are masked.
func TestPageWordsStay(t *testing.T) {
	t.Parallel()
	// What the newcomer's pages showed before the value was typed (the
	// lines of their text, their text nodes and attribute values).
	wrong := New()
	wrong.Enter("wrong", Entry{Typed: true, Old: []string{"Sign in", "Wrong password? Reset it", "Wrong password?"}})
	password := New()
	password.Enter("password", Entry{Old: []string{"Username Password Sign in", "Password", "password", "current-password",
		"/forgot-password", "document.getElementById('password').focus()"}})
	short := New()
	short.Enter("hunter2x", Entry{})
	for _, c := range []struct {
		r       *Registry
		in, out string
	}{
		{wrong, "_[:]Wrong password? Reset it", "_[:]Wrong password? Reset it"},
		{wrong, "_[:]Wrong password? 5[:]<a>Reset it</a>", "_[:]Wrong password? 5[:]<a>Reset it</a>"},
		{wrong, "_[:]you typed wrong", "_[:]you typed " + Mask},
		{wrong, `"wrong"`, `"` + Mask + `"`},
		{wrong, `{"v":"wrong"}`, `{"v":"` + Mask + `"}`},
		{wrong, "/login?user=ann&password=wrong", "/login?user=ann&password=" + Mask},
		{wrong, "wrong", Mask},
		{password, "4[:]<input type=password filled>Password</input>", "4[:]<input type=password filled>Password</input>"},
		{password, "Username Password Sign in", "Username Password Sign in"},
		{password, `<input type="password" name="password" autocomplete="current-password">`, `<input type="password" name="password" autocomplete="current-password">`},
		{password, `<a href="/forgot-password">Forgot?</a>`, `<a href="/forgot-password">Forgot?</a>`},
		{password, "you typed password", "you typed " + Mask},
		{password, "You said password.", "You said " + Mask + "."},
		{password, `"password"`, `"` + Mask + `"`},
		{password, "/echo?username=ann&password=password", "/echo?username=ann&password=" + Mask},
		{password, `5[:]<input type=text value=password>Password</input>`, `5[:]<input type=text value=` + Mask + `>Password</input>`},
		{password, `{"act":"fill","ref":"4","ok":true,"code":0,"delta":{"value":"password"}}`, `{"act":"fill","ref":"4","ok":true,"code":0,"delta":{"value":"` + Mask + `"}}`},
		// cdpmcp's markup stays for any value; a page's word in its place
		// does not.
		{short, "4[:]<input type=password filled>Password</input>", "4[:]<input type=password filled>Password</input>"},
		{short, "4[:]<hunter2x>Go</hunter2x>", "4[:]<" + Mask + ">Go</" + Mask + ">"},
		{short, "4[:]<div role=hunter2x>Go</div>", "4[:]<div role=" + Mask + ">Go</div>"},
		{short, "_[:]hunter2x was here", "_[:]" + Mask + " was here"},
	} {
		if got := c.r.Redact(c.in); got != c.out {
			t.Errorf("Redact(%q)\n  = %q\nwant %q", c.in, got, c.out)
		}
	}
	markup := New()
	markup.Add("filled")
	if got := markup.Redact(`4[:]<input type=password filled>Password</input> {"act":"fill"}`); got != `4[:]<input type=password filled>Password</input> {"act":"fill"}` {
		t.Errorf("a value that is a word of cdpmcp's markup: %q", got)
	}
}

// A short value is a piece of many words and numbers: it is masked where it
// stands whole, never inside "contest" or a longer number; a long one is
// masked wherever it shows.
func TestShortValuesStandWhole(t *testing.T) {
	t.Parallel()
	r := New()
	r.Add("test")
	r.Add("2024")
	r.Add("hunter2pass9")
	for text, want := range map[string]string{
		"contest, Latest, attestation, testing":   "contest, Latest, attestation, testing",
		"Order 120245 of 20241 items":             "Order 120245 of 20241 items",
		"you typed test.":                         "you typed [secret].",
		"PIN: 2024 (Test!)":                       "PIN: [secret] ([secret]!)",
		`{"p":"test","q":"2024"}`:                 `{"p":"[secret]","q":"[secret]"}`,
		"/login?user=ann&pw=test&next=/":          "/login?user=ann&pw=[secret]&next=/",
		"user_test":                               "user_[secret]",
		"xhunter2pass9y, %74est, con%74est":       "x[secret]y, [secret], con%74est",
		"contest in base64: " + "dGVzdA== is one": "contest in base64: [secret] is one",
	} {
		if got := r.Redact(text); got != want {
			t.Errorf("Redact(%q) = %q, want %q", text, got, want)
		}
	}
}
