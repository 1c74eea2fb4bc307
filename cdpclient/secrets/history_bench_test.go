package secrets

import "testing"

// Entering a value searches the answers given out before it (history.go):
// a full history (4 MB of large snapshots) and a value with an anchor, one
// of punctuation only (no anchor: every run of base64's alphabet decoded)
// and one beyond ASCII (UTF-16 readings too). Entering happens once a
// type or fill into a secret field, not on every answer.
func BenchmarkEnterAfterFullHistory(b *testing.B) {
	text := snapshotText(b)
	for _, v := range []string{"hunter2~Pass", "~*_!?#", "é中😀!pass"} {
		b.Run(v, func(b *testing.B) {
			r := New()
			for i := 0; i < historyBytes/len(text)+1; i++ {
				r.Saw(text)
			}
			b.ResetTimer()
			for b.Loop() {
				_ = r.shownBefore(v)
			}
		})
	}
}
