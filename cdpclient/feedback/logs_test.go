package feedback

import (
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
)

// A refused first document is the refusal; the redirect before the page that
// arrived is left out when hops are dropped, kept otherwise.
func TestRequestsRefusedAndHops(t *testing.T) {
	main := func(e pagelog.NetworkEntry) bool { return e.Type == "Document" }
	refusal := func(url string) (string, bool) { return "origin not allowed", url == "http://evil/" }
	refusedFirst := []pagelog.NetworkEntry{
		{URL: "http://evil/", Type: "Document", Failed: BlockedByClient + " (x)"},
		{URL: "http://a/app.js", Type: "Script", Status: 200, Done: true},
	}
	reqs, refused := Requests(refusedFirst, main, refusal, false)
	if refused == nil || refused.Blocked != "origin not allowed" || len(reqs) != 2 || reqs[0].Blocked == "" || !reqs[0].Main {
		t.Errorf("refused first document: %+v, %+v", reqs, refused)
	}
	hops := []pagelog.NetworkEntry{
		{URL: "http://a/old", Type: "Document", Status: 302, Done: true},
		{URL: "http://a/new", Type: "Document", Status: 200, Done: true},
		{URL: "http://evil/", Type: "Document", Failed: BlockedByClient},
	}
	if reqs, refused := Requests(hops, main, refusal, true); refused != nil || len(reqs) != 2 || reqs[0].URL != "http://a/new" {
		t.Errorf("hops dropped: %+v, %+v", reqs, refused)
	}
	if reqs, _ := Requests(hops, main, refusal, false); len(reqs) != 3 {
		t.Errorf("hops kept: %+v", reqs)
	}
	if doc := Document(hops, main); doc == nil || doc.URL != "http://evil/" {
		t.Errorf("Document = %+v, want the last", doc)
	}
	errs := ConsoleErrors([]pagelog.ConsoleEntry{{Level: "error", Text: "boom"}, {Level: "error", Network: true, Text: "404"}, {Level: "log", Text: "hi"}})
	if len(errs) != 1 || errs[0] != "boom" {
		t.Errorf("ConsoleErrors = %q", errs)
	}
}
