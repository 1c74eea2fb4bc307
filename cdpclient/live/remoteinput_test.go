package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/google/go-cmp/cmp"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context so tests can run in parallel.
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// rectOf returns an element's box in the page's viewport.
func rectOf(t *testing.T, p *cdpclient.Page, selector string) Box {
	t.Helper()
	sel, _ := json.Marshal(selector)
	v, err := eval.Evaluate(testbound.Context(t), p, `(() => { const r = document.querySelector(`+string(sel)+`).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, eval.Options{})
	if err != nil {
		t.Fatalf("rect of %s: %v", selector, err)
	}
	var r [4]float64
	if err := json.Unmarshal([]byte(v), &r); err != nil {
		t.Fatalf("rect of %s: %q", selector, v)
	}
	return Box{r[0], r[1], r[2], r[3]}
}

// Remote input is the browser's own: a click passed on solves a CAPTCHA in a
// cross-site frame that ignores untrusted clicks, keys and inserted text type
// into the focused field, and a tap presses what is under the finger.
func TestRemoteInputIsTrusted(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/handoff/signin")
	captcha := rectOf(t, p, "#captcha")
	click := func(x, y float64) {
		for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
			ev := MouseEvent{Type: typ, X: x, Y: y}
			if typ != "mouseMoved" {
				ev.Button, ev.ClickCount = "left", 1
			}
			if typ == "mousePressed" {
				ev.Buttons = 1
			}
			if err := DispatchMouse(ctx, p, ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	click(captcha.X+30, captcha.Y+38)
	pw := rectOf(t, p, "#password")
	click(pw.X+5, pw.Y+pw.H/2)
	for _, k := range []KeyEvent{{Key: "a", Code: "KeyA", KeyCode: 65, Text: "a"}, {Key: "a", Code: "KeyA", KeyCode: 65, Up: true},
		{Key: "B", Code: "KeyB", KeyCode: 66, Text: "B", Modifiers: 8}, {Key: "B", Code: "KeyB", KeyCode: 66, Up: true, Modifiers: 8}} {
		if err := DispatchKey(ctx, p, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := InsertText(ctx, p, "çé"); err != nil {
		t.Fatal(err)
	}
	testbound.UntilNil(t, "the CAPTCHA to take a trusted click", func() error {
		if cdptest.Eval(t, ctx, p, `document.getElementById('captcha-state').textContent`) == "CAPTCHA solved" {
			return nil
		}
		return fmt.Errorf("untrusted clicks: %d", cdptest.Site.UntrustedCaptchaClicks())
	})
	if got := cdptest.Eval(t, ctx, p, `document.getElementById('password').value`); got != "aBçé" {
		t.Errorf("typed %q, want aBçé", got)
	}

	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/handoff/anim.html?still"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	pad := rectOf(t, p, "#pad")
	pt := []TouchPoint{{X: pad.X + 50, Y: pad.Y + 50, ID: 1}}
	if err := DispatchTouch(ctx, p, "touchStart", pt, 0); err != nil {
		t.Fatal(err)
	}
	if err := DispatchTouch(ctx, p, "touchEnd", nil, 0); err != nil {
		t.Fatal(err)
	}
	if got := cdptest.Eval(t, ctx, p, `getComputedStyle(document.getElementById('pad')).backgroundColor`); got != "rgb(0, 200, 0)" {
		t.Errorf("after a tap the pad is %s", got)
	}
	if err := DispatchMouse(ctx, p, MouseEvent{Type: "mouseWheel", X: 10, Y: 10, DeltaY: 100}); err != nil {
		t.Fatal(err)
	}
	if err := DispatchMouse(ctx, p, MouseEvent{Type: "drag"}); err == nil {
		t.Error("an unknown mouse event type was dispatched")
	}
}

// The viewport follows a viewer's window and comes back.
func TestSetViewport(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/home.html")
	before := cdptest.Eval(t, ctx, p, `JSON.stringify([innerWidth, innerHeight])`)
	if err := SetViewport(ctx, p, 640, 400, 2, false); err != nil {
		t.Fatal(err)
	}
	if got := cdptest.Eval(t, ctx, p, `JSON.stringify([innerWidth, innerHeight, devicePixelRatio])`); got != "[640,400,2]" {
		t.Errorf("viewport %s, want [640,400,2]", got)
	}
	if err := ResetViewport(ctx, p); err != nil {
		t.Fatal(err)
	}
	// The renderer takes the size back with its next frame.
	testbound.UntilNil(t, "the viewport to be reset", func() error {
		if got := cdptest.Eval(t, ctx, p, `JSON.stringify([innerWidth, innerHeight])`); got != before {
			return fmt.Errorf("viewport %s, want %s", got, before)
		}
		return nil
	})
}

// Password fields are found where they are drawn, also after a script turned
// one into a text field, and in a same-origin frame.
func TestSecretBoxes(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/handoff/signin")
	pw := rectOf(t, p, "#password")
	boxes, _, _, err := SecretBoxes(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Box{pw}, boxes); diff != "" {
		t.Errorf("boxes (-want +got):\n%s", diff)
	}
	cdptest.Eval(t, ctx, p, `document.getElementById('password').type = 'text'; 'ok'`)
	if boxes, _, _, err = SecretBoxes(ctx, p); err != nil || len(boxes) != 1 {
		t.Errorf("after the field became a text field: %v %v", boxes, err)
	}
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/home.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if boxes, _, _, err = SecretBoxes(ctx, p); err != nil || len(boxes) != 0 {
		t.Errorf("a page without password fields: %v %v", boxes, err)
	}
}

// Two screencasts of one tab share the browser's stream: both get frames, one
// that starts late gets the latest frame at once, and one goes on after the
// other stopped.
func TestScreencastFansOut(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/handoff/anim.html")
	a, b := make(chan Frame, 100), make(chan Frame, 100)
	put := func(c chan Frame) func(Frame) {
		return func(f Frame) {
			select {
			case c <- f:
			default:
			}
		}
	}
	stopA, err := Screencast(ctx, p, ScreencastOptions{MaxWidth: 320, MaxHeight: 200}, put(a))
	if err != nil {
		t.Fatal(err)
	}
	first := recvFrame(t, a)
	if first.Meta.DeviceWidth <= 0 || !strings.HasPrefix(string(first.Data[:3]), "\xff\xd8\xff") {
		t.Fatalf("first frame: %+v, %d bytes", first.Meta, len(first.Data))
	}
	stopB, err := Screencast(ctx, p, ScreencastOptions{}, put(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Errorf("the late screencast started without the latest frame")
	}
	recvFrame(t, b)
	recvFrame(t, a)
	stopA()
	for len(b) > 0 {
		<-b
	}
	recvFrame(t, b)
	stopB()
	stopB()
}

func recvFrame(t *testing.T, c chan Frame) Frame {
	t.Helper()
	select {
	case f := <-c:
		return f
	case <-time.After(testbound.Bound()):
		t.Fatalf("no frame within %s", testbound.Bound())
	}
	return Frame{}
}

// A recorded frame shows no secret field: its box is painted over, and the
// rest of the picture is left as it was.
func TestMaskSecrets(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/handoff/signin")
	// A "show password" toggle: the field holds legible text.
	cdptest.Eval(t, ctx, p, `const f = document.getElementById('password'); f.value = 'WWWWWWWWWW'; f.type = 'text'; 'ok'`)
	frames := make(chan Frame, 10)
	stop, err := Screencast(ctx, p, ScreencastOptions{}, func(f Frame) {
		select {
		case frames <- f:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	f := recvFrame(t, frames)
	masked, err := MaskSecrets(ctx, p, f)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(masked.Data))
	if err != nil {
		t.Fatal(err)
	}
	k := float64(img.Bounds().Dx()) / f.Meta.DeviceWidth
	grey := func(x, y float64) bool {
		r, g, b, _ := img.At(int(x*k), int(y*k)).RGBA()
		near := func(v uint32) bool { return v>>8 >= 0x45 && v>>8 <= 0x65 }
		return near(r) && near(g) && near(b)
	}
	pw := rectOf(t, p, "#password")
	for _, pt := range [][2]float64{{pw.X + 3, pw.Y + 3}, {pw.X + pw.W/2, pw.Y + pw.H/2}, {pw.X + pw.W - 3, pw.Y + pw.H - 3}} {
		if !grey(pt[0], pt[1]) {
			t.Errorf("the field is not masked at %v", pt)
		}
	}
	user := rectOf(t, p, "#user")
	if grey(user.X+user.W/2, user.Y+user.H/2) || grey(5, 5) {
		t.Error("more than the secret field is masked")
	}
	// Away from the field the frame is the browser's, sample for sample:
	// only the blocks under the mask are coded again.
	was, err := jpeg.Decode(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatal(err)
	}
	field := image.Rect(int(pw.X*k)-maskPad, int(pw.Y*k)-maskPad, int((pw.X+pw.W)*k)+maskPad+1, int((pw.Y+pw.H)*k)+maskPad+1)
	under := image.Rect(field.Min.X/16*16-16, field.Min.Y/16*16-16, field.Max.X/16*16+32, field.Max.Y/16*16+32)
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			if image.Pt(x, y).In(under) {
				continue
			}
			if a, b := img.(*image.YCbCr).YCbCrAt(x, y), was.(*image.YCbCr).YCbCrAt(x, y); a != b {
				t.Fatalf("(%d,%d), away from the field, changed: %v → %v", x, y, b, a)
			}
		}
	}
}
