package tools

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// A password typed, then shown by a "show password" toggle (the field a
// text field now): a screenshot of the field, of the viewport and of the
// whole page (PNG and JPEG) paints the field over instead of drawing the
// password, while the same field drawing dots is left as the browser drew
// it.
func TestScreenshotPaintsOverARevealedPassword(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Secrets: secrets.New()}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/secrets/login")}))
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#password", "text": "Zq9-horse-Battery"}))
	// painted is the share of the field's picture in the mask's grey.
	painted := func(args map[string]any) float64 {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "screenshot", args
		res, err := c.CallTool(testCtx(t), req)
		if err != nil || res.IsError {
			t.Fatalf("screenshot(%v): %v %v", args, err, res)
		}
		var img image.Image
		for _, ct := range res.Content {
			if ic, ok := ct.(mcp.ImageContent); ok {
				data, _ := base64.StdEncoding.DecodeString(ic.Data)
				if ic.MIMEType == "image/jpeg" {
					img, err = jpeg.Decode(bytes.NewReader(data))
				} else {
					img, err = png.Decode(bytes.NewReader(data))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		if img == nil {
			t.Fatalf("screenshot(%v) holds no image", args)
		}
		box := img.Bounds()
		if _, whole := args["selector"]; !whole {
			box = fieldBox(t, c, img.Bounds().Dx())
		}
		grey, all := 0, 0
		for y := box.Min.Y + 3; y < box.Max.Y-3; y++ {
			for x := box.Min.X + 3; x < box.Max.X-3; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				all++
				if near(r, 0x55) && near(g, 0x55) && near(b, 0x55) {
					grey++
				}
			}
		}
		return float64(grey) / float64(max(all, 1))
	}
	if p := painted(map[string]any{"selector": "#password"}); p > 0.1 {
		t.Errorf("the password field drawing dots is painted over (%.0f%%)", p*100)
	}
	mustOK(t, callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#password').type = 'text'; 1"}))
	for _, args := range []map[string]any{
		{"selector": "#password"}, {}, {"fullPage": true, "format": "jpeg"}, {"scale": "css"},
	} {
		if p := painted(args); p < 0.9 {
			t.Errorf("screenshot(%v): the revealed password field is %.0f%% painted over, want all of it", args, p*100)
		}
	}
}

// fieldBox is where #password is in a viewport picture imageWidth pixels
// wide.
func fieldBox(t *testing.T, c *client.Client, imageWidth int) image.Rectangle {
	t.Helper()
	r := callTool(t, c, "evaluate", map[string]any{"expression": "(() => { const b = document.querySelector('#password').getBoundingClientRect(); " +
		"return [b.left + scrollX, b.top + scrollY, b.width, b.height, document.documentElement.clientWidth]; })()"})
	mustOK(t, r)
	var v [5]float64
	if err := json.Unmarshal([]byte(r.text), &v); err != nil {
		t.Fatalf("the field's box: %q", r.text)
	}
	k := float64(imageWidth) / v[4]
	return image.Rect(int(v[0]*k), int(v[1]*k), int((v[0]+v[2])*k), int((v[1]+v[3])*k))
}

func near(v uint32, want uint8) bool {
	d := int(v>>8) - int(want)
	return d > -8 && d < 8
}
