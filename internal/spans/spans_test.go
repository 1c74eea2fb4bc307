package spans

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Without a Recorder, Start records nothing and hands back a no-op; with one,
// phases sum by name in the order they first ran, clocks report their growth,
// and a clock registered twice counts once.
func TestRecorder(t *testing.T) {
	ctx := context.Background()
	Start(ctx, "nothing")() // no Recorder: nothing to record, no panic
	if From(ctx) != nil {
		t.Fatal("a bare context carries a Recorder")
	}

	r := New()
	ctx = With(ctx, r)
	if !On() {
		t.Error("On is false after New")
	}
	r.Add("settle", 3*time.Millisecond)
	r.Add("feedback", time.Millisecond)
	r.Add("settle", 2*time.Millisecond)
	var total time.Duration
	Clock(ctx, "browser", func() time.Duration { return total })
	Clock(ctx, "browser", func() time.Duration { return 100 * time.Hour })
	total = 7 * time.Millisecond
	end := Start(ctx, "walk")
	end()

	got := r.Phases()
	want := []string{"settle", "feedback", "walk", "browser"}
	if len(got) != len(want) {
		t.Fatalf("phases %v, want the names %v", got, want)
	}
	for i, p := range got {
		if p.Name != want[i] {
			t.Errorf("phase %d is %q, want %q", i, p.Name, want[i])
		}
	}
	if got[0].D != 5*time.Millisecond || got[0].N != 2 {
		t.Errorf("settle: %v ×%d, want 5ms ×2", got[0].D, got[0].N)
	}
	if got[3].D != 7*time.Millisecond {
		t.Errorf("browser clock grew %v, want 7ms", got[3].D)
	}
	if ms := r.Ms(); ms["settle"] != 5 || ms["browser"] != 7 {
		t.Errorf("Ms() = %v", ms)
	}
	if s := r.String(); !strings.HasPrefix(s, "settle 5.0ms ×2, feedback 1.0ms, walk ") || !strings.HasSuffix(s, "browser 7.0ms") {
		t.Errorf("String() = %q", s)
	}
}
