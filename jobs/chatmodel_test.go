package jobs_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/cdpmcp/cdpmcp/agentloop"
)

// chatModel is a scripted OpenAI-compatible endpoint: answer gives the reply
// to its n-th request (from 1) with the request's body, which holds the
// prompt.
func chatModel(t *testing.T, answer func(n int, body string) string) *agentloop.OpenAI {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reply := answer(int(calls.Add(1)), string(body))
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": reply}}}})
	}))
	t.Cleanup(srv.Close)
	return &agentloop.OpenAI{BaseURL: srv.URL, Retries: -1}
}
