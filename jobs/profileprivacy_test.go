package jobs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/secrettest"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// A login job in a named profile, on a sign-in form sent by GET (the password
// in the URL): once the server has closed and its browsers have written
// everything, no file of the data dir (the job store, the profile's history,
// session and cache, the artifacts) holds the password in any encoding.
func TestProfileKeepsNoPassword(t *testing.T) {
	t.Parallel()
	onBothStores(t, testProfileKeepsNoPassword)
}

func testProfileKeepsNoPassword(t *testing.T) {
	t.Parallel()
	path := t.TempDir()
	q := openQueue(t, path, jobs.Config{MaxTabs: 1})
	const pw = "Prof1le~Pass*W0rd!"
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/secrets/login"), Profile: "me",
		Task: jobs.Task{Type: jobs.TaskLogin, Username: "ann@example.com", Password: pw}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded {
		t.Fatalf("login: %s %s", done.State, done.Error)
	}
	q.close()
	search := secrettest.NewSearch([]string{pw})
	files := 0
	err := filepath.Walk(path, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !fi.Mode().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for h := range search.Find(string(b)) {
			t.Errorf("%s holds the password (%s)", p, h.Encoding)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("only %d files in the data dir: the profile was not written", files)
	}
	t.Logf("searched %d files", files)
}
