package liveview_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/liveview"
)

// An idle view draws (almost) no frames, and a page that moves is drawn as it
// moves. How fast is BenchmarkLiveView's.
func TestLiveViewIdleAndMoving(t *testing.T) {
	t.Parallel()
	tab := newTab(t, jobs, site.URL("/handoff/anim.html?still"))
	url, err := lv.Offer(liveview.Offer{Key: "idle", Tab: tab, Title: "job at rest"})
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Withdraw("idle")
	view, _ := openView(t, url)
	waitForViewerSize(t, tab, view)
	time.Sleep(300 * time.Millisecond) // the last resize's frames
	frames0 := viewer(t, view).Frames
	const idle = 2 * time.Second
	time.Sleep(idle) // a quiet period: frames drawn in it are the failure
	if n := viewer(t, view).Frames - frames0; n > 5 {
		t.Errorf("an idle page drew %d frames in %s", n, idle)
	}
	var ok bool
	eval(t, tab, `(() => { location.search = ''; return true; })()`, &ok)
	frames1 := viewer(t, view).Frames
	waitFor(t, "20 frames of the moving page", func() bool { return viewer(t, view).Frames-frames1 >= 20 })
}

// waitForViewerSize waits until the tab has taken the viewer's size.
func waitForViewerSize(t testing.TB, tab, view *cdpclient.Page) {
	t.Helper()
	waitFor(t, "the tab to take the viewer's size", func() bool {
		var w float64
		eval(t, tab, `innerWidth`, &w)
		return abs(viewer(t, view).Width-w) < 2
	})
}

// BenchmarkLiveView measures, on loopback with both browsers headless, the
// first frame after the view's URL is opened, a click in the view until the
// frame showing its effect is drawn (median of 6), frames per second while the
// page moves, and the CPU an idle view costs over 2 s (this process, the
// tab's browser, the viewer's browser). With CDPMCP_LIVEVIEW_SHOT set, a
// screenshot of the view is saved there.
//
//	go test -run '^$' -bench LiveView -benchtime 3x ./liveview
func BenchmarkLiveView(b *testing.B) {
	var first, click, fps, cpuSelf, cpuTab, cpuView []float64
	for i := 0; b.Loop(); i++ {
		f := liveViewFigures(b, fmt.Sprint("figures-", i))
		first, click, fps = append(first, f.firstFrameMs), append(click, f.clickMs), append(fps, f.fps)
		cpuSelf, cpuTab, cpuView = append(cpuSelf, f.cpuSelf), append(cpuTab, f.cpuTab), append(cpuView, f.cpuView)
	}
	b.ReportMetric(medianOf(first), "first-frame-ms")
	b.ReportMetric(medianOf(click), "click-to-frame-ms")
	b.ReportMetric(medianOf(fps), "fps-moving")
	b.ReportMetric(medianOf(cpuSelf), "idle-cpu-%-cdpmcp")
	b.ReportMetric(medianOf(cpuTab), "idle-cpu-%-tab-browser")
	b.ReportMetric(medianOf(cpuView), "idle-cpu-%-viewer-browser")
}

type figures struct{ firstFrameMs, clickMs, fps, cpuSelf, cpuTab, cpuView float64 }

func liveViewFigures(t testing.TB, key string) figures {
	tab := newTab(t, jobs, site.URL("/handoff/anim.html?still"))
	url, err := lv.Offer(liveview.Offer{Key: key, Tab: tab, Title: "job figures (custom)", Reason: "a test of speed"})
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Withdraw(key)
	view, s := openView(t, url)
	f := figures{firstFrameMs: s.FirstFrameMs}
	waitForViewerSize(t, tab, view)

	// A click: from the viewer's pointerdown to the drawn frame that shows the
	// pad's new colour, sampled in the drawn picture.
	pad := rect(t, tab, "#pad")
	var vw float64
	eval(t, tab, `innerWidth`, &vw)
	var ok bool
	eval(t, view, `(() => {
		const c = document.getElementById('screen'), g = c.getContext('2d');
		window.__probe = {down: 0, changes: []};
		addEventListener('pointerdown', () => { window.__probe.down = performance.now(); }, true);
		const draw = CanvasRenderingContext2D.prototype.drawImage;
		let last = '';
		CanvasRenderingContext2D.prototype.drawImage = function (...a) {
			draw.apply(this, a);
			const k = c.width / `+ftoa(vw)+`;
			const px = this.getImageData(Math.round(`+ftoa(pad.X+pad.W/2)+` * k), Math.round(`+ftoa(pad.Y+pad.H/2)+` * k), 1, 1).data;
			const col = px[1] > 150 ? 'green' : 'red';
			if (col !== last) { last = col; window.__probe.changes.push([col, performance.now() - window.__probe.down]); }
		};
		return true; })()`, &ok)
	var lat []float64
	for i := range 6 {
		clickTabPoint(t, view, tab, pad.X+pad.W/2, pad.Y+pad.H/2)
		want := "green"
		if i%2 == 1 {
			want = "red"
		}
		var ms float64
		waitFor(t, "the frame after a click", func() bool {
			var ch [][2]any
			eval(t, view, `window.__probe.changes`, &ch)
			if len(ch) == 0 || ch[len(ch)-1][0] != want {
				return false
			}
			ms, _ = ch[len(ch)-1][1].(float64)
			return true
		})
		lat = append(lat, ms)
	}
	f.clickMs = medianOf(lat)

	// Idle: the page does not change; the view waits.
	time.Sleep(300 * time.Millisecond)
	self0, tab0, view0 := cpuOfSelf(), cpuGroup(jobsMarker), cpuGroup(viewMarker)
	const idle = 2 * time.Second
	time.Sleep(idle)
	self1, tab1, view1 := cpuOfSelf(), cpuGroup(jobsMarker), cpuGroup(viewMarker)
	pct := func(a, b time.Duration) float64 { return 100 * float64(b-a) / float64(idle) }
	f.cpuSelf, f.cpuTab, f.cpuView = pct(self0, self1), pct(tab0, tab1), pct(view0, view1)

	// Moving: frames per second while the page animates.
	eval(t, tab, `(() => { location.search = ''; return true; })()`, &ok)
	time.Sleep(500 * time.Millisecond)
	f0 := viewer(t, view).Frames
	time.Sleep(time.Second)
	f.fps = float64(viewer(t, view).Frames - f0)
	if shot := os.Getenv("CDPMCP_LIVEVIEW_SHOT"); shot != "" {
		saveShot(t, view, shot)
	}
	return f
}

func medianOf(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// cpuOfSelf is the CPU time this process has used.
func cpuOfSelf() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuGroup is the CPU time of the browser started with marker and its
// process group (renderers, GPU, network service).
func cpuGroup(marker string) time.Duration {
	proc, found := fixtures.FindBrowser(marker)
	if !found {
		return 0
	}
	var ticks int64
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// Fields after the command (which may hold spaces): state ppid pgrp … utime stime.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		if len(f) < 13 {
			continue
		}
		if pgrp, _ := strconv.Atoi(f[2]); pgrp != proc.PGID {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + s
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}
