package feedback

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONLeavesOutEmptyFields(t *testing.T) {
	fb := &Feedback{Act: "click", Ref: "12", OK: true, Code: 0, Timing: 31}
	if got, want := fb.JSON(), `{"act":"click","ref":"12","ok":true,"code":0,"timing":31}`; got != want {
		t.Errorf("JSON() = %s, want %s", got, want)
	}
	fb = &Feedback{Act: "fill", OK: false, Code: 3, Msg: "covered by <div>", Hint: "close 7 first",
		Delta: &Delta{Added: [][2]string{{"51", "<li>Suggestion</li>"}}}}
	got := fb.JSON()
	for _, want := range []string{`"ok":false`, `"code":3`, `"msg":"covered by <div>"`, `"added":[["51","<li>Suggestion</li>"]]`, `"hint":"close 7 first"`} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON() = %s lacks %s", got, want)
		}
	}
	if (&Delta{}).Empty() != true || (&Delta{Removed: []string{"1"}}).Empty() {
		t.Error("Delta.Empty is wrong")
	}
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("x", 400)
	got := Errors([]string{"TypeError: a is undefined\n    at f (http://a:1/x.js:1)", "TypeError: a is undefined", "Refused to load 'http://a:1/x.css'", long, "fourth"}, "http://a:1")
	want := []string{"TypeError: a is undefined", "Refused to load '/x.css'", long[:89] + "…"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Errors (-want +got):\n%s", d)
	}
}

func TestSummarize(t *testing.T) {
	origin := "http://127.0.0.1:8080"
	reqs := []Request{
		{Method: "POST", URL: origin + "/login", Type: "Document", Status: 303, Main: true},
		{Method: "GET", URL: origin + "/dashboard.html", Type: "Document", Status: 200, Main: true},
		{Method: "GET", URL: origin + "/app.css", Type: "Stylesheet", Status: 200},
		{Method: "GET", URL: origin + "/missing.png", Type: "Image", Status: 404},
		{Method: "GET", URL: origin + "/a.png", Type: "Image", Failed: "net::ERR_FAILED"},
		{Method: "GET", URL: "https://cdn.example/x.js", Type: "Script", Failed: "net::ERR_NAME_NOT_RESOLVED"},
		{Method: "GET", URL: "https://fonts.example/f.woff2", Type: "Font", Blocked: "policy"},
		{Method: "GET", URL: origin + "/api/items?q=1", Type: "Fetch", Status: 200},
		{Method: "POST", URL: origin + "/api/save", Type: "XHR", Status: 500},
		{Method: "GET", URL: "https://api.example/very/long/path/to/some/resource/that/goes/on/v2/items.json", Type: "Fetch", Pending: true},
		{Method: "GET", URL: origin + "/favicon.ico", Type: "Other", Status: 404},
		{Method: "GET", URL: "data:image/png;base64,xx", Type: "Image", Status: 200},
	}
	got, more := Summarize(reqs, origin, false)
	want := []Net{
		{M: "POST", U: "/login", S: 303},
		{U: "/api/items?q=1", S: 200},
		{M: "POST", U: "/api/save", S: 500},
		{U: "https://api.example/…/items.json", Pending: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Summarize (-want +got):\n%s", d)
	}
	if want := "+4 failed: 2 img, 1 font, 1 script"; more != want {
		t.Errorf("more = %q, want %q", more, want)
	}
	// A navigation lists the page's own calls only when they failed.
	got, _ = Summarize(reqs, origin, true)
	if len(got) != 3 || got[1].U != "/api/save" {
		t.Errorf("navigation summary = %+v", got)
	}
	var many []Request
	for range 20 {
		many = append(many, Request{URL: origin + "/api", Type: "XHR", Status: 200})
	}
	got, more = Summarize(many, origin, false)
	if len(got) != maxNet || more != "+14 more requests (see network)" {
		t.Errorf("Summarize kept %d (%q), want at most %d", len(got), more, maxNet)
	}
}

func TestRelURL(t *testing.T) {
	tests := []struct{ u, origin, want string }{
		{"http://a:1/x?y#z", "http://a:1", "/x?y#z"},
		{"http://a:1", "http://a:1", "/"},
		{"http://a:12/x", "http://a:1", "http://a:12/x"},
		{"https://b/x", "http://a:1", "https://b/x"},
		{"http://a:1/x", "", "http://a:1/x"},
	}
	for _, tc := range tests {
		if got := RelURL(tc.u, tc.origin); got != tc.want {
			t.Errorf("RelURL(%q, %q) = %q, want %q", tc.u, tc.origin, got, tc.want)
		}
	}
	if got := Origin("about:blank"); got != "" {
		t.Errorf("Origin(about:blank) = %q", got)
	}
}
