package agentloop

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// OpenAI is a model behind any OpenAI-compatible chat-completions endpoint
// (OpenAI, vLLM, llama.cpp's server, Ollama, LM Studio…). Each attempt is
// bounded by Timeout; an attempt that times out, is throttled (429) or meets a
// server error (5xx) or a broken connection is retried after a growing pause.
type OpenAI struct {
	// BaseURL is the API root, e.g. "https://api.openai.com/v1" or
	// "http://127.0.0.1:11434/v1"; "/chat/completions" is appended unless the
	// URL already ends with it.
	BaseURL string
	// Model is the model name the endpoint expects (may be empty for servers
	// that serve one model).
	Model string
	// APIKey, when set, is sent as "Authorization: Bearer KEY".
	APIKey string
	// Timeout bounds one attempt (default 2 minutes).
	Timeout time.Duration
	// Retries is how many times a failed attempt is repeated (default 3; a
	// negative value means none).
	Retries int
	// Backoff is the pause before the first retry; it doubles each time, with
	// jitter, up to 30 s (default 1 s). A Retry-After header wins when longer.
	Backoff time.Duration
	// Client sends the requests (default: a client without its own timeout).
	Client *http.Client
}

var _ Model = (*OpenAI)(nil)

const maxBackoff = 30 * time.Second

// Complete sends one chat-completions request, retrying as the type says.
func (o *OpenAI) Complete(ctx context.Context, p Prompt) (*Answer, error) {
	body, err := o.body(p)
	if err != nil {
		return nil, err
	}
	retries, pause := o.Retries, o.Backoff
	if retries == 0 {
		retries = 3
	}
	if pause <= 0 {
		pause = time.Second
	}
	merr := &ModelError{Provider: o.BaseURL}
	for attempt := 0; ; attempt++ {
		merr.Attempts = attempt + 1
		ans, status, wait, err := o.attempt(ctx, body)
		merr.Status = status
		if err == nil {
			return ans, nil
		}
		merr.Err = err
		if ctx.Err() != nil {
			return nil, ctx.Err() // the caller gave up: no retry, no wrapping
		}
		if wait < 0 || attempt >= retries {
			return nil, merr
		}
		d := min(pause<<attempt, maxBackoff)
		d = d/2 + rand.N(d/2+1)
		d = max(d, min(wait, maxBackoff))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// attempt makes one call. wait < 0 means the error is final; wait > 0 is the
// pause the server asked for.
func (o *OpenAI) attempt(ctx context.Context, body []byte) (ans *Answer, status int, wait time.Duration, err error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, o.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, 0, -1, err
	}
	req.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, 0, 0, fmt.Errorf("no answer within %s (abandoned)", timeout)
		}
		return nil, 0, 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		if errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, resp.StatusCode, 0, fmt.Errorf("answer not complete within %s (abandoned)", timeout)
		}
		return nil, resp.StatusCode, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("HTTP %d: %s", resp.StatusCode, maskKey(bodyText(data), o.APIKey))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return nil, resp.StatusCode, retryAfter(resp.Header.Get("Retry-After")), err
		}
		return nil, resp.StatusCode, -1, err
	}
	ans, err = parseCompletion(data)
	if err != nil {
		return nil, resp.StatusCode, -1, err
	}
	return ans, resp.StatusCode, 0, nil
}

func (o *OpenAI) endpoint() string {
	u := strings.TrimRight(o.BaseURL, "/")
	if strings.HasSuffix(u, "/chat/completions") {
		return u
	}
	return u + "/chat/completions"
}

type chatMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type chatPart struct {
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	ImageURL *chatImageURL `json:"image_url,omitempty"`
}

type chatImageURL struct {
	URL string `json:"url"`
}

// request builds the request body. Only what every compatible server accepts
// is sent: no temperature or token limit, which some models refuse.
func (o *OpenAI) request(p Prompt) map[string]any {
	var user any = p.User
	if p.Image != nil {
		user = []chatPart{
			{Type: "text", Text: p.User},
			{Type: "image_url", ImageURL: &chatImageURL{URL: "data:" + p.Image.MIME + ";base64," + base64.StdEncoding.EncodeToString(p.Image.Data)}},
		}
	}
	req := map[string]any{"messages": []chatMessage{{Role: "system", Content: p.System}, {Role: "user", Content: user}}}
	if o.Model != "" {
		req["model"] = o.Model
	}
	return req
}

// body encodes the request once for every attempt. The element list is
// full of "<" and ">": left as they are rather than escaped for HTML
// (\u003c), the same JSON is a sixth smaller and quicker to write.
func (o *OpenAI) body(p Prompt) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o.request(p)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// parseCompletion reads the first choice's text; servers send it as a string
// or as a list of text parts.
func parseCompletion(data []byte) (*Answer, error) {
	var r struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct {
			Prompt     int `json:"prompt_tokens"`
			Completion int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("the endpoint's answer is not chat-completions JSON: %w", err)
	}
	if len(r.Choices) == 0 {
		return nil, fmt.Errorf("the endpoint answered with no choices: %s", bodyText(data))
	}
	ans := &Answer{Model: r.Model, PromptTokens: r.Usage.Prompt, OutputTokens: r.Usage.Completion}
	content := r.Choices[0].Message.Content
	if err := json.Unmarshal(content, &ans.Text); err == nil {
		return ans, nil
	}
	var parts []chatPart
	if err := json.Unmarshal(content, &parts); err != nil {
		return nil, fmt.Errorf("the endpoint's message content is neither text nor parts: %.200s", content)
	}
	for _, part := range parts {
		ans.Text += part.Text
	}
	return ans, nil
}

// bodyText picks the message out of an error body, cut short.
func bodyText(data []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	s := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
		s = e.Error.Message
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// retryAfter reads a Retry-After header given in seconds.
func retryAfter(h string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}
