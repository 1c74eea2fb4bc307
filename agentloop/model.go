package agentloop

import (
	"context"
	"errors"
	"fmt"
)

// Model answers one prompt with the model's text. Implementations must return
// as soon as ctx is cancelled.
type Model interface {
	Complete(ctx context.Context, p Prompt) (*Answer, error)
}

// Prompt is one request to the model: seed 000's system prompt, the step's user
// message and, when vision is on, the step's annotated screenshot.
type Prompt struct {
	System string
	User   string
	Image  *Image
	// MaxTokens bounds the answer's length.
	MaxTokens int
}

// Image is an encoded picture sent with the user message.
type Image struct {
	Data []byte
	MIME string
}

// Answer is what the model said.
type Answer struct {
	Text string
	// Model names the model that answered, when the provider says.
	Model string
	// PromptTokens and OutputTokens are the provider's counts, 0 when untold.
	PromptTokens, OutputTokens int
}

// maxAnswerTokens is the answer budget asked of every model: seed 000's JSON
// with a handful of actions fits well within it.
const maxAnswerTokens = 2048

// ErrNoModel means neither an endpoint is configured nor does the client offer
// its own model.
var ErrNoModel = errors.New("no model to run the agent: start cdpmcp with --llm-base-url (an OpenAI-compatible endpoint) and --llm-model, or call from an MCP client that offers sampling")

// ModelError is a model call that failed for good (after retries, or at once
// for an error a retry cannot fix).
type ModelError struct {
	// Provider names where the call went, e.g. "http://127.0.0.1:11434/v1".
	Provider string
	// Status is the HTTP status of the last attempt, 0 when there was none.
	Status int
	// Attempts is how many calls were made.
	Attempts int
	Err      error
}

func (e *ModelError) Error() string {
	s := fmt.Sprintf("model call to %s failed", e.Provider)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	return s + ": " + e.Err.Error()
}

func (e *ModelError) Unwrap() error { return e.Err }
