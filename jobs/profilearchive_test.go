package jobs_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// What a named profile may hold: what sites stored for themselves.
var profileMayHold = []string{"Default", "Default/Network", "Default/Network/Cookies", "Default/Network/Cookies-journal",
	"Default/Cookies", "Default/Cookies-journal", "Default/Local Storage", "Default/IndexedDB", "Default/WebStorage",
	"Default/File System", "Default/databases",
	"Default/cdpmcp-cookies.json"} // the cookies as its last job left them (profilecookies.go)

// What it must never hold, by name: where the browser went, what was
// typed, what the browser keeps for itself.
var profileNever = []string{"History", "History-journal", "Sessions", "Sessions_Encrypted", "Current Session", "Last Session",
	"Login Data", "Login Data For Account", "Web Data", "Account Web Data", "Visited Links", "Top Sites", "Favicons", "Shortcuts",
	"Network Action Predictor", "Preferences", "Secure Preferences", "Local State", "Network Persistent State", "TransportSecurity",
	"Reporting and NEL", "Session Storage", "DIPS", "Cache", "Code Cache"}

// profileEntryOK says whether rel (slash-separated) may be in a profile.
func profileEntryOK(rel string) bool {
	for _, k := range profileMayHold {
		if rel == k || strings.HasPrefix(rel, k+"/") && k != "Default" && k != "Default/Network" {
			return true
		}
	}
	return false
}

// A named profile, after a sign-in (a cookie), a form that sent a password
// in its URL and a page that stored things: its archive (what a shared store
// keeps) and its folder at rest hold the cookies and site storage only (no
// history, session, login or web data, network state, preferences), and
// the archive, unpacked into a fresh folder, still signs a browser in and
// keeps the page's localStorage.
func TestProfileArchiveHoldsSignInsOnly(t *testing.T) {
	t.Parallel()
	path := t.TempDir()
	q := openQueue(t, path, jobs.Config{MaxTabs: 1})
	for _, req := range []jobs.SubmitRequest{
		{URL: site.URL("/jobs/login"), Profile: "me", Task: jobs.Task{Type: jobs.TaskLogin, Username: "ann@example.com", Password: fixtures.LoginPassword}},
		{URL: site.URL("/secrets/login"), Profile: "me", Task: jobs.Task{Type: jobs.TaskLogin, Username: "ann@example.com", Password: "Arch1ve~Pass*W0rd"}},
		{URL: site.URL("/jobs/storage.html"), Profile: "me", Task: jobs.Task{Type: jobs.TaskNavigate}},
	} {
		req.CorrelationID = req.URL
		j := q.submit(t, req)
		if done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed); done.State != jobs.Succeeded {
			t.Fatalf("%s: %s %s", req.URL, done.State, done.Error)
		}
	}
	profile := q.dir.ProfileDir("", "me")
	q.close()

	archive, err := jobs.TarDir(profile)
	if err != nil {
		t.Fatal(err)
	}
	var inArchive []string
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	for tr := tar.NewReader(gz); ; {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		inArchive = append(inArchive, hdr.Name)
	}
	var atRest []string
	_ = filepath.WalkDir(profile, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != profile {
			rel, _ := filepath.Rel(profile, p)
			atRest = append(atRest, filepath.ToSlash(rel))
		}
		return nil
	})
	t.Logf("the archive holds %d entries: %s", len(inArchive), strings.Join(inArchive, ", "))
	for where, names := range map[string][]string{"the archive": inArchive, "the folder at rest": atRest} {
		cookies, storage := false, false
		for _, n := range names {
			if !profileEntryOK(n) && n != "Default" && n != "Default/Network" {
				t.Errorf("%s holds %s", where, n)
			}
			for _, never := range profileNever {
				if filepath.Base(n) == never {
					t.Errorf("%s holds %s", where, n)
				}
			}
			cookies = cookies || strings.HasSuffix(n, "/Cookies")
			storage = storage || strings.HasPrefix(n, "Default/Local Storage/")
		}
		if !cookies || !storage {
			t.Errorf("%s lacks the cookies (%v) or the localStorage (%v): %v", where, cookies, storage, names)
		}
	}

	// Unpacked into a fresh folder, the archive still signs a browser in.
	restored := filepath.Join(t.TempDir(), "restored")
	if err := os.MkdirAll(restored, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := jobs.Untar(archive, restored); err != nil {
		t.Fatal(err)
	}
	ctx := testbound.Context(t)
	mgr := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, UserDataDir: restored, Args: testBrowserArgs}})
	defer mgr.Close()
	b, err := mgr.Browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Default().NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	read := func(url, expr string) string {
		t.Helper()
		if _, err := p.Navigate(ctx, site.URL(url), cdpclient.WaitLoad); err != nil {
			t.Fatal(err)
		}
		out, err := eval.Evaluate(ctx, p, expr, eval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := read("/jobs/account", "document.getElementById('state').textContent"); got != `"Signed in"` {
		t.Errorf("the restored profile is not signed in: %s", got)
	}
	if got := read("/jobs/storage.html", "document.getElementById('seen').textContent"); !strings.HasPrefix(got, `"L|-|`) {
		t.Errorf("the restored profile lost the page's localStorage: %s", got)
	}
}
