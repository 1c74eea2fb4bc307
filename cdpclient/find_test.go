package cdpclient

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// find answers the matching lines of the page model and their refs, without
// the rest of the snapshot; with box, where each element is on screen.
func TestFind(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/parity/form.html"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    FindQuery
		want []string // lines that must be there, as regular expressions
		not  string
	}{
		{FindQuery{Role: "textbox", Name: "email"}, []string{`^1 match for role textbox, name "email"$`, `^\d+\[:\]# Sign up$`, `^\d+\[:\]<input type=email[^>]*>Email`}, "Name"},
		{FindQuery{Role: "button", Name: "SAVE", Box: true}, []string{`^\d+\[:\]<button[^>]*>Save</button> \[box=\d+,\d+,\d+,\d+\]$`}, ""},
		{FindQuery{Text: "newsletter"}, []string{`^\d+\[:\]<input type=checkbox[^>]*>Newsletter`}, "Email"},
		{FindQuery{Role: "radio"}, []string{`^2 matches for role radio$`}, ""},
		{FindQuery{Role: "link", Name: "nowhere"}, []string{`^no matches for role link, name "nowhere" on p\d+$`}, ""},
	}
	for _, tt := range tests {
		got, err := p.Find(ctx, tt.q)
		if err != nil {
			t.Fatalf("%+v: %v", tt.q, err)
		}
		for _, w := range tt.want {
			if !regexp.MustCompile(`(?m)` + w).MatchString(got) {
				t.Errorf("Find(%+v) lacks /%s/:\n%s", tt.q, w, got)
			}
		}
		if tt.not != "" && strings.Contains(got, tt.not) {
			t.Errorf("Find(%+v) holds %q:\n%s", tt.q, tt.not, got)
		}
	}
	if _, err := p.Find(ctx, FindQuery{}); err == nil {
		t.Error("Find with nothing to find")
	}

	// In the innermost of three cross-site frames: the ref works and the box
	// is where a click at its centre lands.
	if err := outcome(p.Navigate(ctx, testSite.URL("/parity/nest.html?d=3"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	got, err := p.Find(ctx, FindQuery{Role: "button", Name: "shadow", Box: true})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^(\d+)\[:\]<button[^>]*>Shadow button</button> \[box=(\d+),(\d+),(\d+),(\d+)\]$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no shadow button with a box:\n%s", got)
	}
	x, y := atoi(m[2])+atoi(m[4])/2, atoi(m[3])+atoi(m[5])/2
	if err := outcome(p.Mouse(ctx, MouseInput{Action: "click", X: float64(x), Y: float64(y)})); err != nil {
		t.Fatal(err)
	}
	// The frame's own process handles the click: poll for what it shows.
	var after string
	if err := poll(ctx, 50*time.Millisecond, func() (bool, error) {
		var err error
		after, err = p.Find(ctx, FindQuery{Text: "pressed"})
		return regexp.MustCompile(`(?m)^\d+\[:\]<span>pressed</span>$`).MatchString(after), err
	}); err != nil {
		t.Errorf("a click at the box's centre did not reach the button (%v):\n%s", err, after)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
