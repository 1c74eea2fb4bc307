package liveview_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// saveShot writes a PNG screenshot of the person's view to path.
func saveShot(t testing.TB, view *cdpclient.Page, path string) {
	t.Helper()
	raw, err := view.Raw(testCtx(t), "Page.captureScreenshot", json.RawMessage(`{"format":"png"}`))
	if err != nil {
		t.Fatal(err)
	}
	var shot struct{ Data []byte }
	if err := json.Unmarshal(raw, &shot); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, shot.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the live view: %s", path)
}
