package tools

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// askingAgent is a server whose agent opens the sign-in, asks for a person,
// then says done.
func askingAgent(t *testing.T) (*Server, *chatServer) {
	chat := newChatServer(t,
		agentAnswer("open", `{"go_to_url": {"url": "`+site.URL("/handoff/signin")+`"}}`),
		agentAnswer("a CAPTCHA", `{"ask_human": {"reason": "solve the CAPTCHA"}}`),
		agentAnswer("report", `{"done": {"result": "signed in"}}`))
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, LiveView: newLiveView(t), HandoffTimeout: time.Minute,
		Agent: AgentConfig{LLM: agentloop.OpenAI{BaseURL: chat.srv.URL + "/v1", Timeout: callTimeout},
			Loop: agentloop.Config{MaxSteps: 5, RunDir: t.TempDir()}}}, mgr)
	t.Cleanup(s.Close)
	return s, chat
}

// takeOver opens the view at url as a person, clicks the CAPTCHA and
// presses Done.
func takeOver(t *testing.T, c *client.Client, url string) {
	t.Helper()
	view := personTab(t, url)
	waitUntil(t, "the first frame", func() bool { return viewFrames(t, view) > 0 })
	if err := cdpclient.Outcome(view.Click(testCtx(t), cdpclient.Target{Selector: "#done"}, cdpclient.ClickOptions{})); err != nil {
		t.Fatal(err)
	}
}

// run_browser_agent's ask_human hands the tab to a person: a client that can
// open URLs is asked to (elicitation); one that cannot hears the URL in a
// progress notification; the run waits for the person's Done and goes on,
// the model told the person handed the tab back.
func TestAgentAsksAPerson(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"elicitation", "progress"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			s, chat := askingAgent(t)
			opener := &urlOpener{got: make(chan string, 2)}
			var c *client.Client
			urls := make(chan string, 2)
			if how == "elicitation" {
				c = urlClient(t, s, opener)
				go func() { urls <- <-opener.got }()
			} else {
				c = newClient(t, s)
				var once sync.Once
				c.OnNotification(func(n mcp.JSONRPCNotification) {
					msg := fmt.Sprint(n.Params.AdditionalFields["message"])
					if m := regexp.MustCompile(`http://\S+/live/\S+`).FindString(msg); n.Method == "notifications/progress" && m != "" {
						once.Do(func() { urls <- m })
					}
				})
			}
			ended := make(chan agentloop.Outcome, 1)
			go func() {
				_, out := agentOutcome(t, testCtx(t), c, "Sign in", true)
				ended <- out
			}()
			var url string
			select {
			case url = <-urls:
			case <-time.After(testbound.Bound()):
				t.Fatal("no one was told where to take over the tab")
			}
			takeOver(t, c, url)
			out := <-ended
			chat.mu.Lock()
			defer chat.mu.Unlock()
			if !out.Success || out.Steps != 3 || len(chat.users) != 3 || !strings.Contains(chat.users[2], "the person handed the tab back") {
				t.Errorf("outcome %+v; the third prompt: %q", out, chat.users[len(chat.users)-1])
			}
		})
	}
}

// Without a way to reach a person (no URL elicitation, no progress token),
// ask_human is not offered.
func TestAgentWithoutAPersonHasNoAskHuman(t *testing.T) {
	t.Parallel()
	s, chat := askingAgent(t)
	c := newClient(t, s)
	res, out := agentOutcome(t, testCtx(t), c, "Sign in", false)
	chat.mu.Lock()
	defer chat.mu.Unlock()
	if res.IsError || len(chat.users) != 3 || !regexp.MustCompile(`unknown action \\*"ask_human`).MatchString(chat.users[2]) {
		t.Errorf("outcome %+v; the third prompt: %q", out, chat.users[len(chat.users)-1])
	}
}

// No one taking the tab within the handoff's time is told to the model as a
// timeout with what to do without a person, not as cdpmcp's own failure.
func TestAgentAskNoOneCame(t *testing.T) {
	t.Parallel()
	chat := newChatServer(t,
		agentAnswer("open", `{"go_to_url": {"url": "`+site.URL("/handoff/signin")+`"}}`),
		agentAnswer("a CAPTCHA", `{"ask_human": {"reason": "solve the CAPTCHA"}}`),
		agentAnswer("report", `{"done": {"result": "no one came"}}`))
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, LiveView: newLiveView(t), HandoffTimeout: time.Second,
		Agent: AgentConfig{LLM: agentloop.OpenAI{BaseURL: chat.srv.URL + "/v1", Timeout: callTimeout},
			Loop: agentloop.Config{MaxSteps: 5, RunDir: t.TempDir()}}}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)
	_, out := agentOutcome(t, testCtx(t), c, "Sign in", true)
	chat.mu.Lock()
	defer chat.mu.Unlock()
	if out.Steps != 3 || len(chat.users) != 3 {
		t.Fatalf("outcome %+v after %d prompts", out, len(chat.users))
	}
	third := chat.users[2]
	if !strings.Contains(third, "no one handed the tab back within 1s") || !strings.Contains(third, "no person did it") || strings.Contains(third, "INTERNAL") || strings.Contains(third, "call again") {
		t.Errorf("the third prompt: %q", third)
	}
}
