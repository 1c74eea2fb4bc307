package jobs_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// A job that asks for video leaves a WebM of its tab.
func TestVideo(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/product.html"), Task: jobs.Task{Type: jobs.TaskNavigate, Video: true}})
	d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if d.State != jobs.Succeeded {
		t.Fatalf("%s %s", d.State, d.Error)
	}
	b, err := os.ReadFile(d.Artifacts.Video)
	if err != nil || !bytes.HasPrefix(b, []byte{0x1a, 0x45, 0xdf, 0xa3}) || !strings.HasSuffix(d.Artifacts.Video, ".webm") {
		t.Fatalf("video %q: %v (%d bytes)", d.Artifacts.Video, err, len(b))
	}
	if _, err := os.Stat(strings.TrimSuffix(d.Artifacts.Video, "video.webm") + "frames"); !os.IsNotExist(err) {
		t.Errorf("the frames were left behind: %v", err)
	}
}

// A job's tabs stay within its maxTabs: a tab its page opens is kept while
// the job has room, and closed beyond it.
func TestPopupsWithinMaxTabs(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 4})
	for _, c := range []struct {
		maxTabs int
		want    string
	}{{1, `"act":"tab-opened","kind":"action","note":"closed`}, {2, `"act":"tab-opened","kind":"action","ok":true`}} {
		j := q.submit(t, jobs.SubmitRequest{CorrelationID: "popup" + string(rune('0'+c.maxTabs)), URL: site.URL("/jobs/popup.html"), MaxTabs: c.maxTabs,
			Task: jobs.Task{Type: jobs.TaskMessage, Selectors: []string{"#note", "#open"}, Text: "x"}})
		d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		trace, _ := os.ReadFile(d.Artifacts.Trace)
		if d.State != jobs.Succeeded || !bytes.Contains(trace, []byte(c.want)) {
			t.Errorf("maxTabs %d: %s %s; trace lacks %s:\n%s", c.maxTabs, d.State, d.Error, c.want, trace)
		}
	}
}
