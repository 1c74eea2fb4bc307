package pagemodel

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// openSnapshot opens the snapshot fixture and returns its whole snapshot
// once both frames show their button (the cross-site frame loads after the
// page).
func openSnapshot(t *testing.T) (*cdpclient.Page, string) {
	t.Helper()
	p, ctx := open(t, "/snapshot.html")
	var s string
	testbound.UntilNil(t, "both frames' buttons in the snapshot", func() error {
		var err error
		if s, err = Snapshot(ctx, p, Options{MaxTokens: -1}); err != nil {
			return err
		}
		if n := strings.Count(s, "Frame button"); n != 2 {
			return fmt.Errorf("%d frame buttons", n)
		}
		return nil
	})
	return p, s
}

func TestSnapshotContent(t *testing.T) {
	t.Parallel()
	_, s := openSnapshot(t)
	t.Logf("snapshot:\n%s", s)
	want := []string{
		`page p1 "Snapshot fixture" ` + cdptest.Site.URL("/snapshot.html"),
		"[:]# Account settings",
		"_[:]Welcome back, Alice. Read the ",
		"[:]<a>terms of service</a> first.",
		"[:]<a>Home</a>",
		"[:]<a href=/second.html>More</a>",
		"[:]<a>Profile</a>",
		"[:]<input type=email value=a@example.com required>Email</input>",
		"[:]<input type=search>Search orders</input>",
		"[:]<input type=password filled>Password</input>",
		"[:]<input type=checkbox checked>Send me news</input>",
		"[:]<input type=radio>Basic</input>",
		"[:]<input type=radio checked>Pro</input>",
		"[:]<select value=Germany options=France,Germany,Italy>Country</select>",
		`[:]<textarea value="Line one line two">Bio</textarea>`,
		"[:]<button disabled>Save</button>",
		"[:]<a>Inner link</a>",
		"[:]<div role=tab selected>Overview</div>",
		"[:]<div clickable>Clickable card</div>",
		"_[:]Orders",
		"_[:]Order | Total",
		"_[:]A-1 | $10 | ",
		"_[:]Shadow text",
		"[:]<button", ">Shadow button</button>",
		">Deep link</a>",
		`_[:]iframe "Same origin":`,
		`_[:]iframe "Cross site":`,
		"[:]<button covered>Under the banner</button>",
		"[:]<button>Accept cookies</button>",
	}
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("snapshot lacks %q", w)
		}
	}
	if n := strings.Count(s, "Same name"); n != 1 {
		t.Errorf("an element inside a link with the same name is repeated (%d times)", n)
	}
	for _, bad := range []string{"hunter2", "Hidden paragraph", "Hidden button", "Invisible text", "Screen reader only"} {
		if strings.Contains(s, bad) {
			t.Errorf("snapshot shows %q", bad)
		}
	}
	if n := strings.Count(s, "Frame button"); n != 2 {
		t.Errorf("frame buttons: %d, want 2 (same-origin and cross-site frames)", n)
	}
	// Document order: shadow content before the frames, same-origin frame before the cross-site one.
	order := []string{"Shadow button", "Deep link", `iframe "Same origin"`, "Frame button", `iframe "Cross site"`, "Accept cookies"}
	last := -1
	for _, o := range order {
		i := strings.Index(s, o)
		if i < last {
			t.Errorf("%q is out of document order", o)
		}
		last = i
	}
}

func TestSnapshotRefs(t *testing.T) {
	t.Parallel()
	p, s1 := openSnapshot(t)
	ctx := testContext(t)
	home := refOf(t, s1, "Home")
	// Same element, same ref; a new element gets a new number.
	if _, err := evaluate(ctx, p, `document.getElementById('dynamic').innerHTML = '<button id="added">Added later</button>'`); err != nil {
		t.Fatal(err)
	}
	s2, err := Snapshot(ctx, p, Options{MaxTokens: -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := refOf(t, s2, "Home"); got != home {
		t.Errorf("ref of Home changed from %s to %s", home, got)
	}
	added := refOf(t, s2, "Added later")
	for _, m := range cdptest.ElementLine.FindAllStringSubmatch(s1, -1) {
		if m[1] == added {
			t.Errorf("new element reused ref %s", added)
		}
	}
	// Acting by ref: in a shadow root, in the same-origin frame and in the cross-site frame.
	if err := outcome(p.Click(ctx, cdpclient.Target{Ref: refOf(t, s2, "Accept cookies")}, cdpclient.ClickOptions{})); err != nil {
		t.Fatalf("click by ref: %v", err)
	}
	frameBtns := cdptest.ElementLine.FindAllStringSubmatch(s2, -1)
	var emails, buttons []string
	for _, m := range frameBtns {
		switch m[4] {
		case "Frame email":
			emails = append(emails, m[1])
		case "Frame button":
			buttons = append(buttons, m[1])
		}
	}
	if len(emails) != 2 || len(buttons) != 2 {
		t.Fatalf("frame elements: %v %v", emails, buttons)
	}
	for i := range emails {
		// (fill through the ref: cdpclient/input's frame tests.)
		if _, err := evaluateOn(ctx, p, emails[i], "(el) => { el.value = 'f@x.io'; }"); err != nil {
			t.Fatalf("set the value in frame %d: %v", i, err)
		}
		if err := outcome(p.Click(ctx, cdpclient.Target{Ref: buttons[i]}, cdpclient.ClickOptions{})); err != nil {
			t.Fatalf("click in frame %d: %v", i, err)
		}
		// An object result is serialised in the element's own frame session.
		got, err := evaluateOn(ctx, p, emails[i], "(el) => ({id: el.id, value: el.value})")
		if err != nil || got != `{"id":"fe","value":"f@x.io"}` {
			t.Errorf("evaluate on the element in frame %d = %s, %v", i, got, err)
		}
	}
	s3, err := Snapshot(ctx, p, Options{MaxTokens: -1})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(s3, "Frame clicked f@x.io"); n != 2 {
		t.Errorf("frames after clicks: %d clicked, want 2:\n%s", n, s3)
	}
	// A removed element's ref fails as NOT_FOUND and hits nothing else.
	if _, err := evaluate(ctx, p, `document.getElementById('added').remove(); document.getElementById('dynamic').innerHTML = '<button>Replacement</button>'`); err != nil {
		t.Fatal(err)
	}
	err = outcome(p.Click(ctx, cdpclient.Target{Ref: added}, cdpclient.ClickOptions{}))
	wantCode(t, err, cdpclient.CodeNotFound)
	// After a navigation every old ref is stale, and numbering continues.
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/home.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, outcome(p.Click(ctx, cdpclient.Target{Ref: home}, cdpclient.ClickOptions{})), cdpclient.CodeNotFound)
	s4, err := Snapshot(ctx, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := strconv.Atoi(refOf(t, s4, "Second page"))
	if a, _ := strconv.Atoi(added); r <= a {
		t.Errorf("ref %d after navigation does not continue after %d", r, a)
	}
}

func TestSnapshotScopeBudgetDiff(t *testing.T) {
	t.Parallel()
	p, s := openSnapshot(t)
	ctx := testContext(t)
	scoped, err := Snapshot(ctx, p, Options{Scope: cdpclient.Target{Selector: "table"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(scoped, "A-2 | $20") || strings.Contains(scoped, "Home") {
		t.Errorf("scoped to table:\n%s", scoped)
	}
	if byRef, err := Snapshot(ctx, p, Options{Scope: cdpclient.Target{Ref: refOf(t, s, "Country")}}); err != nil || !strings.Contains(byRef, "Germany") || strings.Contains(byRef, "Home") {
		t.Errorf("scoped to ref: %v\n%s", err, byRef)
	}
	small, err := Snapshot(ctx, p, Options{MaxTokens: 150})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(small, "more elements") || !strings.Contains(small, "follow") || !strings.Contains(small, "snapshot {from: ") {
		t.Errorf("budget 150 without an honest closing line:\n%s", small)
	}
	if _, err := evaluate(ctx, p, `document.querySelector('h1').textContent = 'Changed title'; document.getElementById('dynamic').innerHTML = '<button>Fresh</button>'`); err != nil {
		t.Fatal(err)
	}
	if _, err := Snapshot(ctx, p, Options{MaxTokens: -1}); err != nil { // the baseline
		t.Fatal(err)
	}
	if _, err := evaluate(ctx, p, `document.getElementById('dynamic').innerHTML = '<button>Newer</button>'`); err != nil {
		t.Fatal(err)
	}
	d, err := Snapshot(ctx, p, Options{Diff: true})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(d, "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "1 new or changed, 1 gone") || !strings.Contains(lines[1], "Newer") || !strings.HasPrefix(lines[2], "_[:]gone: ") {
		t.Errorf("diff:\n%s", d)
	}
	_, err = Snapshot(ctx, p, Options{Scope: cdpclient.Target{Selector: "#nothing-here"}})
	wantCode(t, err, cdpclient.CodeNotFound)
}
