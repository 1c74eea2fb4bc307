package actions

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdppolicy"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// FuzzBind: any arguments a client sends bind or are refused with a message and
// a hint; never a panic.
func FuzzBind(f *testing.F) {
	for _, s := range []string{`{"url":"https://example.com","timeoutMs":5}`, `{"ref":12,"selector":"#a"}`, `{"ref":"12"}`,
		`{"values":["a",1]}`, `null`, `[]`, `{"url":5}`, `{"x":1}`, `{"ref":{"a":1}}`, `{`, `"str"`, `{"timeoutMs":1e400}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var a struct {
			targetArgs
			navArgs
			URL    string   `json:"url"`
			Values []string `json:"values"`
			Accept *bool    `json:"accept"`
		}
		err := bind(json.RawMessage(raw), &a)
		if err == nil {
			return
		}
		ae, ok := err.(*cdpclient.ArgError)
		if !ok || ae.Msg == "" || ae.Hint == "" {
			t.Fatalf("bind(%q) = %v (%T)", raw, err, err)
		}
	})
}

// FuzzCheckNavURL: any URL is accepted, refused as malformed with a hint, or
// refused with a PERMISSION result; file and browser URLs never pass.
func FuzzCheckNavURL(f *testing.F) {
	for _, s := range []string{"https://example.com", "example.com", "file:///etc/passwd", "FILE:///x", "chrome://settings",
		"javascript:alert(1)", "data:text/html,x", "about:blank", "http://", "view-source:http://x", " https://a.b ", "http://[::1]:80/", "%"} {
		f.Add(s)
	}
	env := &Env{ReadOnly: true, Origins: &origins.List{}}
	f.Fuzz(func(t *testing.T, raw string) {
		res, err := env.checkNavURL("navigate", raw)
		lower := strings.ToLower(strings.TrimSpace(raw))
		switch {
		case err != nil:
			cae, _ := err.(*cdpclient.ArgError)
			if cae == nil || cae.Hint == "" {
				t.Fatalf("checkNavURL(%q) = %v", raw, err)
			}
		case res != nil:
			if !res.Failed() {
				t.Fatalf("checkNavURL(%q) refused without failing", raw)
			}
		default:
			for _, bad := range []string{"file:", "chrome:", "view-source:", "javascript:", "data:", "devtools:"} {
				if strings.HasPrefix(lower, bad) {
					t.Fatalf("checkNavURL(%q) let a %s URL through", raw, bad)
				}
			}
		}
	})
}

// FuzzCDPParams: the cdp action's arguments are checked before anything reaches
// the browser: wrong shapes are refused with hints.
func FuzzCDPParams(f *testing.F) {
	for _, s := range []string{`{"domain":"Page","method":"reload","params":{"ignoreCache":true}}`, `{"domain":"Page","method":"Page.reload"}`,
		`{"domain":"Page","method":"Runtime.evaluate"}`, `{"domain":"","method":"x"}`, `{"domain":"Page","method":"reload","params":[1]}`,
		`{"domain":"Page","method":"reload","params":"x"}`, `{"method":"DOM.getDocument"}`, `{"method":"getVersion"}`,
		`{"domain":"DOM","method":"Page.reload"}`} {
		f.Add(s)
	}
	// An env without a browser: reaching one panics, which must only happen
	// for a method the read-only allowlist lets through.
	env := &Env{ReadOnly: true, Context: func(context.Context) (*cdpclient.BrowserContext, error) { panic("browser reached") }}
	f.Fuzz(func(t *testing.T, raw string) {
		defer func() {
			if r := recover(); r != nil {
				var a struct {
					Domain, Method, Page string
				}
				_ = json.Unmarshal([]byte(raw), &a)
				m, _ := cdpMethod(a.Domain, a.Method)
				level := cdppolicy.Page
				if a.Page == "browser" {
					level = cdppolicy.Browser
				}
				if _, err := cdppolicy.Check(m, level, true, nil); err != nil {
					t.Fatalf("cdp(%q) went past the checks: %v", raw, r)
				}
			}
		}()
		res, err := CDP.Run(t.Context(), env, json.RawMessage(raw))
		if err != nil {
			if ae, ok := err.(*cdpclient.ArgError); !ok || ae.Hint == "" {
				t.Fatalf("cdp(%q) = %v", raw, err)
			}
			return
		}
		if res == nil || !res.Failed() {
			t.Fatalf("cdp(%q) without a browser returned %+v", raw, res)
		}
	})
}
