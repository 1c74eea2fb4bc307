package input

import (
	"regexp"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/find"
	"github.com/cdpmcp/cdpmcp/internal/poll"
)

// In the innermost of three cross-site frames, the box find gives is where a
// click of the mouse at its centre lands.
func TestMouseOnAFoundBox(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/parity/nest.html?d=3")
	got, err := find.Find(ctx, p, find.Query{Role: "button", Name: "shadow", Box: true})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^(\d+)\[:\]<button[^>]*>Shadow button</button> \[box=(\d+),(\d+),(\d+),(\d+)\]$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no shadow button with a box:\n%s", got)
	}
	x, y := atoi(m[2])+atoi(m[4])/2, atoi(m[3])+atoi(m[5])/2
	if err := outcome(Mouse(ctx, p, MouseInput{Action: "click", X: float64(x), Y: float64(y)})); err != nil {
		t.Fatal(err)
	}
	// The frame's own process handles the click: poll for what it shows.
	var after string
	if err := poll.Until(ctx, 50*time.Millisecond, func() (bool, error) {
		var err error
		after, err = find.Find(ctx, p, find.Query{Text: "pressed"})
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
