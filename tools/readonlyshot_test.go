package tools

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// In read-only mode, a screenshot of an element below the fold captures it
// where it is: the page sees no scroll, the element never comes into its
// view, and the image shows the element.
func TestReadOnlyElementScreenshotDoesNotScroll(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: 20 * time.Second}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/attack/watched")}))
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "screenshot", map[string]any{"selector": "#far"}
	res, err := c.CallTool(testCtx(t), req)
	if err != nil || res.IsError {
		t.Fatalf("screenshot: %v %+v", err, res)
	}
	var shot []byte
	for _, ct := range res.Content {
		if ic, ok := ct.(mcp.ImageContent); ok {
			shot, _ = base64.StdEncoding.DecodeString(ic.Data)
		}
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Min.X+b.Dx()/2, b.Min.Y+b.Dy()/2).RGBA()
	if b.Dx() < 250 || b.Dx() > 350 || r>>8 < 150 || g>>8 > 60 || bl>>8 > 60 {
		t.Errorf("the image is %v, its middle %d,%d,%d: not the red element", b, r>>8, g>>8, bl>>8)
	}
	seen := callTool(t, c, "evaluate", map[string]any{"expression": "JSON.stringify(seen) + ' ' + scrollY"})
	if !strings.Contains(seen.text, `\"scroll\":0`) || !strings.Contains(seen.text, `\"visible\":0`) || !strings.HasSuffix(strings.Trim(seen.text, `"`), " 0") {
		t.Errorf("the page saw the screenshot: %s", seen.text)
	}
}
