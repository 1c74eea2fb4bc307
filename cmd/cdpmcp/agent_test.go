package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// scriptedModel is an OpenAI-compatible endpoint that answers with the given
// texts in turn (the last one again when they run out) and keeps every request.
type scriptedModel struct {
	*httptest.Server
	mu       sync.Mutex
	answers  []string
	requests [][]byte
}

func newScriptedModel(t *testing.T, answers ...string) *scriptedModel {
	m := &scriptedModel{answers: answers}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		m.requests = append(m.requests, body)
		ans := m.answers[min(len(m.requests), len(m.answers))-1]
		m.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"model": "scripted",
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": ans}}}})
	}))
	t.Cleanup(m.Close)
	return m
}

// chatRequest is the part of a chat-completions request docs/agent.md shows.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// The exchange docs/agent.md shows is what the server sends: a system prompt
// and one user message of text and a JPEG screenshot, to which a model answers
// with the RESPONSE FORMAT's JSON; the layout of the user message in the docs
// is the one sent, line for line.
func TestCallAgentExchange(t *testing.T) {
	t.Parallel()
	page := site.URL("/home.html")
	model := newScriptedModel(t,
		`{"current_state":{"prev_action_evaluation":"Unknown - nothing done yet","important_contents":"","task_progress":"","future_plans":"1. Open the page. 2. Read its heading.","thought":"The page must be opened first.","summary":"Open the page."},"action":[{"go_to_url":{"url":"`+page+`"}}]}`,
		`{"current_state":{"prev_action_evaluation":"Success - the page is open","important_contents":"The heading is Fixtures.","task_progress":"1. Opened the page.","future_plans":"","thought":"The heading is on the page.","summary":"Report the heading."},"action":[{"done":{"result":"The heading is Fixtures.","success":true}}]}`)
	tmp := shortTemp(t)
	r := runCLI(t, tmp, "call", "--headless", "--browser-arg="+newMarker("agent"), "--llm-base-url", model.URL+"/v1",
		"--llm-model", "scripted", "run_browser_agent", `{"task":"Open `+page+` and tell me its heading"}`)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "The heading is Fixtures.\n") || !strings.Contains(r.stdout, "success: true; stop: done; steps: 2") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	model.mu.Lock()
	defer model.mu.Unlock()
	if len(model.requests) != 2 {
		t.Fatalf("%d model requests, want 2", len(model.requests))
	}
	var req chatRequest
	if err := json.Unmarshal(model.requests[1], &req); err != nil {
		t.Fatal(err)
	}
	var system string
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if req.Model != "scripted" || len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" ||
		json.Unmarshal(req.Messages[0].Content, &system) != nil || json.Unmarshal(req.Messages[1].Content, &parts) != nil ||
		len(parts) != 2 || parts[0].Type != "text" || parts[1].Type != "image_url" ||
		!strings.HasPrefix(parts[1].ImageURL.URL, "data:image/jpeg;base64,") {
		t.Fatalf("request is not model, system prompt, user text and JPEG: %.600s", model.requests[1])
	}
	doc, err := os.ReadFile("../../docs/agent.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"You are a precise browser automation agent", `"current_state": {`, "Functions:", "go_to_url: Navigate to a specified URL", "done: Signal task completion"} {
		if !strings.Contains(system, line) || !strings.Contains(string(doc), line) {
			t.Errorf("the system prompt sent (%v) and docs/agent.md (%v) should both hold %q", strings.Contains(system, line), strings.Contains(string(doc), line), line)
		}
	}
	// The user message as the docs show it: the test site's address and the
	// date are the docs' own; the element list is left to the snapshot's docs.
	user := strings.ReplaceAll(parts[0].Text, site.URL(""), "http://127.0.0.1:5500")
	user = regexp.MustCompile(`(?m)^Current date and time: .*$`).ReplaceAllString(user, "Current date and time: 2026-11-26 14:39")
	inElements := false
	for _, line := range strings.Split(user, "\n") {
		switch {
		case strings.HasPrefix(line, "6. Interactive elements:"):
			inElements = true
		case line == "":
			inElements = false
		}
		if line != "" && !inElements && !strings.Contains(string(doc), line+"\n") {
			t.Errorf("docs/agent.md lacks the sent user message's line %q", line)
		}
	}
}

// A run whose model never answers fails the call: a non-zero exit and one
// line naming the stop and the endpoint that did not answer.
func TestCallAgentModelNeverAnswers(t *testing.T) {
	t.Parallel()
	// Port 1 is below the ephemeral range, so no server of this machine's
	// tests gets it (a closed test server's port can be another's a moment
	// later: the call then met a 404, not a refusal).
	endpoint := "http://127.0.0.1:1/v1"
	r := runCLI(t, shortTemp(t), "call", "--headless", "--browser-arg="+newMarker("agent-dead"), "--llm-base-url", endpoint,
		"run_browser_agent", `{"task":"open the home page"}`)
	// Log lines may come first: a start that ends processes another test
	// left as orphans (orphans_test.go) says so.
	msg := r.stderr
	for strings.HasPrefix(msg, "time=") {
		_, msg, _ = strings.Cut(msg, "\n")
	}
	if r.code == 0 || r.stdout != "" || !strings.HasPrefix(msg, "cdpmcp: run_browser_agent failed (model_error): model call to "+endpoint) ||
		!strings.Contains(msg, "connection refused") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}
