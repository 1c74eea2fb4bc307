package agentloop

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// scriptedModel is an OpenAI-compatible chat-completions server that answers
// from a script, one turn a request, and keeps every request it received.
// A model cannot run here; this one checks what the loop sends it.
type scriptedModel struct {
	t     testing.TB
	srv   *httptest.Server
	turns []turn

	mu   sync.Mutex
	reqs []*modelReq
	// answered is when the latest answer was written; gaps are the times
	// from each answer to the loop's next request: the server's time
	// between a model's answer and the next question (BenchmarkAgentStep).
	answered time.Time
	gaps     []time.Duration
	// think is how long the model takes to answer (0: at once).
	think time.Duration
}

// turn is one scripted answer.
type turn struct {
	// check, if set, asserts on the request.
	check func(t testing.TB, r *modelReq)
	// reply is the answer's text; replyFn computes it from the request.
	reply   string
	replyFn func(r *modelReq) string
	// status, when not 0 or 200, answers with that HTTP error (reply, if
	// set, as its message).
	status int
	// hang never answers; the request's end is recorded in r.gone.
	hang bool
}

// modelReq is one request the model server received.
type modelReq struct {
	System, User string
	Images       [][]byte // decoded image parts
	Model        string
	Auth         string
	// gone is closed when the client abandoned the request.
	gone chan struct{}
}

func newScriptedModel(t testing.TB, turns ...turn) *scriptedModel {
	m := &scriptedModel{t: t, turns: turns}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

// openAI returns a client of the scripted server with short retry pauses.
func (m *scriptedModel) openAI() *OpenAI {
	return &OpenAI{BaseURL: m.srv.URL + "/v1", Model: "scripted", Backoff: 5 * time.Millisecond, Timeout: testbound.Scale(10 * time.Second)}
}

func (m *scriptedModel) requests() []*modelReq {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*modelReq(nil), m.reqs...)
}

// between returns the times from each answer to the next request.
func (m *scriptedModel) between() []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]time.Duration(nil), m.gaps...)
}

func (m *scriptedModel) serve(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	if !m.answered.IsZero() {
		m.gaps = append(m.gaps, time.Since(m.answered))
	}
	m.mu.Unlock()
	r1, err := decodeRequest(r)
	if err != nil {
		m.t.Errorf("model request: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	n := len(m.reqs)
	m.reqs = append(m.reqs, r1)
	m.mu.Unlock()
	if n >= len(m.turns) {
		m.t.Errorf("model asked %d times; the script has %d turns", n+1, len(m.turns))
		http.Error(w, `{"error":{"message":"script exhausted"}}`, http.StatusBadRequest)
		return
	}
	tn := m.turns[n]
	if tn.check != nil {
		tn.check(m.t, r1)
	}
	switch {
	case tn.hang:
		<-r.Context().Done()
		close(r1.gone)
		return
	case tn.status != 0 && tn.status != http.StatusOK:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(tn.status)
		msg := fmt.Sprintf("scripted %d", tn.status)
		if tn.reply != "" {
			msg = tn.reply // the error's message
		}
		fmt.Fprintf(w, `{"error":{"message":%q}}`, msg)
		return
	}
	time.Sleep(m.think)
	text := tn.reply
	if tn.replyFn != nil {
		text = tn.replyFn(r1)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"model":   "scripted-1",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": len(r1.User) / 4, "completion_tokens": len(text) / 4},
	})
	m.mu.Lock()
	m.answered = time.Now()
	m.mu.Unlock()
}

func decodeRequest(r *http.Request) (*modelReq, error) {
	if r.URL.Path != "/v1/chat/completions" {
		return nil, fmt.Errorf("path %s, want /v1/chat/completions", r.URL.Path)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		return nil, fmt.Errorf("want a system and a user message, got %d messages", len(req.Messages))
	}
	out := &modelReq{Model: req.Model, Auth: r.Header.Get("Authorization"), gone: make(chan struct{})}
	if err := json.Unmarshal(req.Messages[0].Content, &out.System); err != nil {
		return nil, fmt.Errorf("system content: %w", err)
	}
	if json.Unmarshal(req.Messages[1].Content, &out.User) == nil {
		return out, nil
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(req.Messages[1].Content, &parts); err != nil {
		return nil, fmt.Errorf("user content: %w", err)
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			out.User += p.Text
		case "image_url":
			const prefix = "data:image/jpeg;base64,"
			if len(p.ImageURL.URL) < len(prefix) || p.ImageURL.URL[:len(prefix)] != prefix {
				return nil, fmt.Errorf("image URL %.40q is not a JPEG data URL", p.ImageURL.URL)
			}
			img, err := base64.StdEncoding.DecodeString(p.ImageURL.URL[len(prefix):])
			if err != nil {
				return nil, err
			}
			out.Images = append(out.Images, img)
		}
	}
	return out, nil
}

// answer renders a model answer in seed 000's format.
func answer(brain Brain, actions ...string) string {
	b, _ := json.Marshal(map[string]any{"current_state": brain})
	list := "[" + strings.Join(actions, ",") + "]"
	return string(b[:len(b)-1]) + `,"action":` + list + "}"
}
