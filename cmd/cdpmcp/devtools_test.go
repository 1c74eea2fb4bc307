package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/gorilla/websocket"
)

// devtools is a test's own connection to a server's browser, beside cdpmcp's:
// a witness of what the browser holds that does not go through the tools under
// test.
type devtools struct {
	t  testing.TB
	ws *websocket.Conn
	id int
}

// dialDevTools connects to the browser of the server started with marker,
// through the DevToolsActivePort file in its profile.
func dialDevTools(t testing.TB, marker string) *devtools {
	t.Helper()
	bp := findBrowser(t, marker)
	var port, path string
	testbound.Until(t, "DevToolsActivePort in "+bp.UserDataDir, func() bool {
		b, err := os.ReadFile(filepath.Join(bp.UserDataDir, "DevToolsActivePort"))
		if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); err == nil && len(lines) == 2 {
			port, path = lines[0], lines[1]
			return true
		}
		return false
	})
	ws, _, err := websocket.DefaultDialer.Dial("ws://127.0.0.1:"+port+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	return &devtools{t: t, ws: ws}
}

// call sends a browser-level command and decodes its result into out.
func (d *devtools) call(method string, params any, out any) {
	d.t.Helper()
	d.id++
	if err := d.ws.WriteJSON(map[string]any{"id": d.id, "method": method, "params": params}); err != nil {
		d.t.Fatal(err)
	}
	_ = d.ws.SetReadDeadline(time.Now().Add(testbound.Bound()))
	for {
		var msg struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := d.ws.ReadJSON(&msg); err != nil {
			d.t.Fatalf("%s: %v", method, err)
		}
		if msg.ID != d.id {
			continue // an event
		}
		if msg.Error != nil {
			d.t.Fatalf("%s: %s", method, msg.Error)
		}
		if out != nil {
			if err := json.Unmarshal(msg.Result, out); err != nil {
				d.t.Fatalf("%s: %v", method, err)
			}
		}
		return
	}
}

// contexts counts the browser's contexts besides the default one.
func (d *devtools) contexts() int {
	d.t.Helper()
	var r struct {
		IDs []string `json:"browserContextIds"`
	}
	d.call("Target.getBrowserContexts", map[string]any{}, &r)
	return len(r.IDs)
}
