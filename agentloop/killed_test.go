//go:build unix

package agentloop

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// The child process of TestKilledRunGetsReport runs one agent run and is
// killed in the middle; these say where its browser, model and run folder are.
const (
	childCDP   = "AGENTLOOP_CHILD_CDP"
	childModel = "AGENTLOOP_CHILD_MODEL"
	childRuns  = "AGENTLOOP_CHILD_RUNS"
)

func init() { childMain = killedRunChild }

// killedRunChild runs a task on the browser at $AGENTLOOP_CHILD_CDP with the
// model at $AGENTLOOP_CHILD_MODEL, as a server does, until it is killed.
func killedRunChild() (int, bool) {
	endpoint := os.Getenv(childCDP)
	if endpoint == "" {
		return 0, false
	}
	ctx := context.Background()
	fail := func(err error) (int, bool) { fmt.Fprintln(os.Stderr, "child:", err); return 2, true }
	b, err := cdpclient.Connect(ctx, cdpclient.Options{Endpoint: endpoint})
	if err != nil {
		return fail(err)
	}
	bc, err := b.NewContext(ctx)
	if err != nil {
		return fail(err)
	}
	if _, err := bc.NewPage(ctx); err != nil {
		return fail(err)
	}
	policy, err := origins.NewList(nil, nil)
	if err != nil {
		return fail(err)
	}
	env := &actions.Env{Context: func(context.Context) (*cdpclient.BrowserContext, error) { return bc, nil }, Origins: policy}
	model := &OpenAI{BaseURL: os.Getenv(childModel), Model: "scripted", Timeout: time.Minute}
	out, err := Run(ctx, env, model, Config{MaxSteps: 10, Vision: true, RunDir: os.Getenv(childRuns)}, Task{Task: "Order a green T-shirt for Alice."})
	if err != nil {
		return fail(err)
	}
	return fail(fmt.Errorf("the run ended (%s) before it was killed", out.Stop))
}

// A server killed in the middle of a run (SIGKILL: nothing of it runs after)
// leaves the run's record and no report. RecoverReports, which the server
// runs when it starts again, leaves a run in progress alone, then makes the
// report from the record once its process is gone: marked interrupted, at
// the step the run had reached, with what the model had found, a last line
// cut short left out, the record untouched, and never written twice.
func TestKilledRunGetsReport(t *testing.T) {
	t.Parallel()
	port, err := fixtures.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	chromium, err := fixtures.StartChromium(port, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(chromium.Kill)
	form := site.URL("/agent/form.html")
	m := newScriptedModel(t,
		turn{reply: answer(Brain{FuturePlans: "1. Open the shop", Summary: "Open the shop"}, `{"go_to_url": {"url": "`+form+`"}}`)},
		turn{reply: answer(Brain{PrevActionEvaluation: "Success - the shop is open", ImportantContents: "Shirts cost $12.50 each",
			TaskProgress: "1. Opened the shop", Summary: "Look further down"}, `{"scroll": {"direction": "down"}}`)},
		turn{hang: true}, // the server dies while the model thinks
	)
	runs := t.TempDir()
	var stderr bytes.Buffer
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childCDP+"="+fmt.Sprintf("http://127.0.0.1:%d", port), childModel+"="+m.srv.URL+"/v1", childRuns+"="+runs)
	child.Stderr = &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	t.Cleanup(func() {
		if !exited {
			_ = child.Process.Kill()
			_ = child.Wait()
		}
	})

	// Step 3 has asked the model, and steps 1 and 2 are in the record.
	var dir string
	deadline := time.Now().Add(testbound.Scale(60 * time.Second))
	for {
		if len(m.requests()) >= 3 {
			if found, _ := filepath.Glob(filepath.Join(runs, "*", recordName)); len(found) == 1 {
				if data, _ := os.ReadFile(found[0]); strings.Count(string(data), `{"type":"step"`) == 2 {
					dir = filepath.Dir(found[0])
					break
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not reach step 3; child's stderr:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if made := RecoverReports(runs); len(made) != 0 {
		t.Fatalf("a run in progress got a report: %v", made)
	}

	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	exited = true
	if _, err := os.Stat(filepath.Join(dir, reportName)); err == nil {
		t.Fatal("the killed run wrote a report")
	}
	// A write the kill cut short.
	f, err := os.OpenFile(filepath.Join(dir, recordName), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"step","step":3,"time":"2026-`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	record, err := os.ReadFile(filepath.Join(dir, recordName))
	if err != nil {
		t.Fatal(err)
	}

	made := RecoverReports(runs)
	want := filepath.Join(dir, reportName)
	if len(made) != 1 || made[0] != want {
		t.Fatalf("reports made %v, want [%s]", made, want)
	}
	page, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	report := string(page)
	for _, s := range []string{
		`<span class="badge">interrupted</span> <b>interrupted</b>`,
		"the server stopped during step 3 of 10 (the record ends after step 2); no final answer",
		"What was found so far:\nShirts cost $12.50 each",
		`id="step-1"`, `id="step-2"`, "data:image/jpeg;base64,",
		"made from the run's record.jsonl",
		"<dt>Final URL</dt><dd>" + form + "</dd>",
	} {
		if !strings.Contains(report, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if strings.Contains(report, `id="step-3"`) {
		t.Error("the report shows the step cut short")
	}
	if after, _ := os.ReadFile(filepath.Join(dir, recordName)); !bytes.Equal(after, record) {
		t.Error("the record changed")
	}
	// Made once: the next start leaves it.
	if again := RecoverReports(runs); len(again) != 0 {
		t.Errorf("reports made again: %v", again)
	}
	if after, _ := os.ReadFile(want); !bytes.Equal(after, page) {
		t.Error("the report was written over")
	}
}
