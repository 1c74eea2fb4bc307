package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/secrettest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// answers keeps every answer the server gave, to search.
type answers struct {
	mu  sync.Mutex
	all []string
}

func (a *answers) add(s string) {
	a.mu.Lock()
	a.all = append(a.all, s)
	a.mu.Unlock()
}

// caller calls tools in one session and keeps what they answer (text and
// structured content).
type caller struct {
	t   *testing.T
	ctx context.Context
	c   *client.Client
	out *answers
}

func (c caller) call(tool string, args map[string]any) (string, bool) {
	c.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.c.CallTool(c.ctx, req)
	if err != nil {
		c.t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	if res.StructuredContent != nil {
		j, _ := json.Marshal(res.StructuredContent)
		b.Write(j)
	}
	c.out.add(tool + ": " + b.String())
	return b.String(), res.IsError
}

// must calls a tool that has to succeed; a page too busy to answer (on a
// loaded machine) is asked again, as a model would.
func (c caller) must(tool string, args map[string]any) string {
	c.t.Helper()
	for try := 0; ; try++ {
		text, isErr := c.call(tool, args)
		if !isErr {
			return text
		}
		if try == 4 || !strings.Contains(text, "busy") {
			c.t.Fatalf("%s(%v): %s", tool, args, text)
		}
	}
}

// readBack asks for the page every way a model can: what it shows, its
// URL, its requests (bodies too), its console, an audit, its HTML.
func (c caller) readBack() {
	c.t.Helper()
	for _, step := range []struct {
		tool string
		args map[string]any
	}{
		{"getUrl", nil}, {"getTitle", nil}, {"listPages", nil}, {"snapshot", nil},
		{"getContent", nil}, {"getContent", map[string]any{"format": "html"}}, {"getContent", map[string]any{"format": "text"}},
		{"evaluate", map[string]any{"expression": "location.href + document.documentElement.outerHTML"}},
		{"network", map[string]any{"limit": 100}}, {"request", map[string]any{"url": "/secrets/echo", "body": true}},
		{"request", map[string]any{"url": "/secrets/ping", "body": true}}, {"console", nil}, {"auditSecurity", nil},
		{"goBack", nil}, {"snapshot", nil},
		{"evaluate", map[string]any{"expression": "[...document.querySelectorAll('input,p')].map(e => e.value || e.textContent)"}},
	} {
		c.call(step.tool, step.args)
	}
}

// The secrets table, entered every way a password reaches a page (type,
// fill, fillForm, pressKey key by key, a login job, a person in the live
// view) into GET and POST sign-in forms, a page that echoes it as it is
// typed and one that shows it after: then every answer, and every file the
// server wrote (its data dir, the artifacts, the --trace file, its logs), is
// searched for each secret in every encoding, and holds none.
func TestSecretsTableFoundNowhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, artifacts, trace := filepath.Join(dir, "data"), filepath.Join(dir, "artifacts"), filepath.Join(dir, "trace.jsonl")
	s := startHTTP(t, "secretstable", "--caps", "all", "--data-dir", data, "--artifacts-dir", artifacts, "--trace", trace,
		"--log-level", "debug", "--max-tabs", "4")
	table := secrettest.Secrets()
	// Key by key: punctuation, spaces, characters beyond one key press each
	// (a long random one adds nothing but a minute of key presses); every
	// key waits for the strength meter's request, so they go in two forms
	// side by side, about thirty keys each.
	keyByKey := []string{table[3], table[8], table[12], "Pä ss~*_!"}
	// Filled one call each: a secret of each kind (letters, every
	// punctuation mark, spaces, non-ASCII, markup, the longest). fillForm
	// fills every one of the table through the same fill (input.fill, a
	// value set at once), into the GET and the POST form: one fill call a
	// secret more only adds a 400 ms follow-up wait for the strength meter's
	// request each (a minute of a loaded run).
	oneByOne := []string{table[1], table[3], table[8], table[9], table[11], table[14], table[16], table[len(table)-2], table[len(table)-1]}
	forJobs := []string{table[0], table[3], table[5], table[13], table[len(table)-2]}
	forPerson := []string{table[4], table[12]}
	out := &answers{}

	t.Run("entered", func(t *testing.T) {
		// The flows run at once, as users of one server (concurrently):
		// typed, the table goes in quarters, four forms side by side.
		var flows []subtest
		for _, flow := range []struct {
			name, method, how string
			secrets           []string
		}{
			{"type GET", "get", "type", table[:len(table)/4]},
			{"type GET 2", "get", "type", table[len(table)/4 : len(table)/2]},
			{"type POST", "post", "type", table[len(table)/2 : 3*len(table)/4]},
			{"type POST 2", "post", "type", table[3*len(table)/4:]},
			{"fill POST", "post", "fill", oneByOne},
			{"fillForm GET", "get", "fillForm", table},
			{"fillForm POST", "post", "fillForm", table},
			{"pressKey GET", "get", "pressKey", keyByKey[:1]},
			{"pressKey POST", "post", "pressKey", keyByKey[1:]},
		} {
			flows = append(flows, subtest{flow.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(5*time.Minute)) // hundreds of calls
				defer cancel()
				c := caller{t: t, ctx: ctx, c: httpClient(t, ctx, s.url, ""), out: out}
				c.must("navigate", map[string]any{"url": site.URL(fmt.Sprintf("/secrets/form?method=%s&n=%d", flow.method, len(flow.secrets)))})
				c.must("record", map[string]any{"op": "start"})
				var fields []any
				for i, secret := range flow.secrets {
					sel := fmt.Sprintf("#pw%d", i)
					switch flow.how {
					case "type":
						c.must("type", map[string]any{"selector": sel, "text": secret})
					case "fill":
						c.must("fill", map[string]any{"selector": sel, "value": secret})
					case "pressKey":
						for k, r := range secret {
							args := map[string]any{"key": string(r)}
							if r == ' ' {
								args["key"] = "Space"
							}
							if k == 0 {
								args["selector"] = sel
							}
							c.must("pressKey", args)
						}
					}
					fields = append(fields, map[string]any{"selector": sel, "value": secret})
				}
				if flow.how == "fillForm" {
					c.must("fillForm", map[string]any{"fields": fields})
				}
				c.must("evaluate", map[string]any{"expression": "[...document.querySelectorAll('input')].map(i => i.value)"})
				c.must("getContent", map[string]any{"format": "text"})
				if flow.how == "pressKey" {
					c.must("pressKey", map[string]any{"key": "Enter"})
				} else {
					c.must("click", map[string]any{"selector": "#go"})
				}
				// The echo page of a whole table took more than waitFor's
				// default 10 s to load on a loaded machine: the test's bound.
				c.must("waitFor", map[string]any{"text": "Signed in", "timeoutMs": min(testbound.Bound(), 2*time.Minute).Milliseconds()})
				c.readBack()
				c.must("record", map[string]any{"op": "stop"})
			}})
		}
		flows = append(flows, subtest{"login jobs", func(t *testing.T) {
			ctx := testbound.Context(t)
			c := caller{t: t, ctx: ctx, c: httpClient(t, ctx, s.url, ""), out: out}
			var ids []string
			for i, secret := range forJobs {
				st := c.must("browser.job.submit", map[string]any{"correlationId": fmt.Sprintf("login-%d", i), "url": site.URL("/secrets/login"),
					"task": map[string]any{"type": "login", "username": "ann@example.com", "password": secret}})
				ids = append(ids, jsonField(t, st, "jobId"))
			}
			for i, id := range ids {
				waitJobText(t, c, fmt.Sprintf("login-%d", i), id, "SUCCEEDED", "FAILED")
			}
		}})
		flows = append(flows, subtest{"live view", func(t *testing.T) {
			ctx := testbound.Context(t)
			c := caller{t: t, ctx: ctx, c: httpClient(t, ctx, s.url, ""), out: out}
			for i, secret := range forPerson {
				corr := fmt.Sprintf("person-%d", i)
				st := c.must("browser.job.submit", map[string]any{"correlationId": corr, "url": site.URL("/secrets/login?to=welcome"), "handoffAllowed": true,
					"task": map[string]any{"type": "login"}})
				id := jsonField(t, st, "jobId")
				waiting := waitJobText(t, c, corr, id, "WAITING_FOR_HUMAN")
				person := browserLike()
				link := jsonField(t, waiting, "handoffUrl")
				if code, view := openLink(t, person, link); code != 200 || !view {
					t.Fatalf("the live view: %d", code)
				}
				personTypes(t, person, link, secret)
				waitJobText(t, c, corr, id, "SUCCEEDED", "FAILED")
			}
		}})
		concurrently(t, flows)
	})

	// Stop the server, so every file is written, then search.
	s.stop(t)
	texts := map[string]string{"logs": s.stderr.String()}
	for i, a := range out.all {
		texts[fmt.Sprintf("answer %d", i)] = a
	}
	for _, root := range []string{data, artifacts, trace} {
		_ = filepath.Walk(root, func(path string, fi os.FileInfo, err error) error {
			if err == nil && fi.Mode().IsRegular() {
				if b, err := os.ReadFile(path); err == nil {
					texts[path] = string(b)
				}
			}
			return nil
		})
	}
	if len(texts) < 20 || !strings.Contains(texts["logs"], "level=DEBUG") {
		t.Fatalf("too little to search: %d texts", len(texts))
	}
	used := append(append(append(append([]string(nil), table...), keyByKey...), forJobs...), forPerson...)
	search, bytes := secrettest.NewSearch(used), 0
	// The search finds them where they are: in what the test sent.
	sent, _ := json.Marshal(used)
	if n := len(search.Find(string(sent))); n < len(used) {
		t.Fatalf("the search finds %d of %d secrets in the arguments sent", n, len(used))
	}
	for where, text := range texts {
		bytes += len(text)
		for h, end := range search.Find(text) {
			t.Errorf("%s holds %q (%s): …%s…", where, h.Secret, h.Encoding, text[max(0, end-250):min(len(text), end+50)])
		}
	}
	t.Logf("searched %d answers and files (%d bytes) for %d secrets in %d encodings", len(texts), bytes, len(used), len(secrettest.Encodings))
}

// subtest is a subtest's name and function.
type subtest struct {
	name string
	fn   func(*testing.T)
}

// concurrently runs each of subtests as a subtest of t, all at once, as the
// users of one server are. They are not t.Parallel subtests, which wait for
// the package's -parallel slots a few at a time: a flow here mostly waits
// for its page, using little CPU, and the test took minutes queued so.
func concurrently(t *testing.T, subtests []subtest) {
	var wg sync.WaitGroup
	for _, st := range subtests {
		wg.Go(func() { t.Run(st.name, st.fn) })
	}
	wg.Wait()
}

// jsonField reads a string field of a structured answer.
func jsonField(t *testing.T, text, field string) string {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(strings.NewReader(text[max(0, strings.Index(text, "{")):])).Decode(&m); err != nil {
		t.Fatalf("answer %q: %v", text, err)
	}
	v, _ := m[field].(string)
	return v
}

// waitJobText waits for a job (browser.job.wait, which answers once the job
// ends or waits for a person, rather than asking for its status over and
// over) until it is in one of states (failing on another final one) and
// returns its last status. A job a loaded machine failed (a page too busy to
// answer) still had the password: it is searched too.
func waitJobText(t *testing.T, c caller, corr, id string, states ...string) string {
	t.Helper()
	var last string
	testbound.Until(t, "job "+id+" "+strings.Join(states, " or "), func() bool {
		last = c.must("browser.job.wait", map[string]any{"correlationId": corr, "jobId": id, "timeoutMs": 20000})
		got := jsonField(t, last, "status")
		if slices.Contains(states, got) {
			return true
		}
		if got == "FAILED" || got == "CANCELLED" || got == "SUCCEEDED" {
			t.Fatalf("job %s: %s", id, last)
		}
		return false
	})
	return last
}

// personTypes types secret in the live view as a person's browser sends it
// (the password field has the focus), presses Enter and hands the tab back.
func personTypes(t *testing.T, person *http.Client, link, secret string) {
	t.Helper()
	before := site.Hits("/secrets/welcome")
	post := func(action string, body any) {
		t.Helper()
		b, _ := json.Marshal(body)
		u, _ := url.Parse(link)
		req, _ := http.NewRequest(http.MethodPost, link+"/"+action, strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", u.Scheme+"://"+u.Host)
		res, err := person.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("live view %s: %d", action, res.StatusCode)
		}
	}
	post("input", []map[string]any{
		{"t": "i", "text": secret},
		{"t": "k", "e": "down", "key": "Enter", "code": "Enter", "kc": 13, "text": "\r"},
		{"t": "k", "e": "up", "key": "Enter", "code": "Enter", "kc": 13},
	})
	testbound.Until(t, "the form to reach the welcome page", func() bool { return site.Hits("/secrets/welcome") > before })
	post("done", map[string]any{})
}
