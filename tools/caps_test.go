package tools

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/internal/tokens"
	"github.com/mark3labs/mcp-go/mcp"
)

// defaultListBudget is what the default tools/list may cost a client, in o200k
// tokens (the peers spend 4.4 k and 6.4 k), with the raw cdp passthrough and
// run_browser_agent among the tools.
const defaultListBudget = 3600

// listed returns the tools a configuration offers and their o200k token
// count as a client pays for them: the tools array as the server sends it over
// stdio, written as JSON.stringify writes it (no escaped <, >, &), which is how
// the peers' lists are counted. (Re-encoding mcp-go's client structs would add
// what the server never sent, such as "required":[] on every tool.)
func listed(t *testing.T, cfg Config) ([]mcp.Tool, int) {
	t.Helper()
	s := New(cfg, mgr)
	defer s.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	defer serveStdio(t, s, inR, outW)()
	out := bufio.NewReader(outR)
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	reply := func(id int) json.RawMessage {
		for {
			line, err := out.ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(line, &m) == nil && m.ID == id {
				return m.Result
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"caps-test","version":"1"}}}`)
	reply(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var res struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(reply(2), &res); err != nil {
		t.Fatal(err)
	}
	var list []mcp.Tool
	if err := json.Unmarshal(res.Tools, &list); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, res.Tools); err != nil {
		t.Fatal(err)
	}
	wire := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(buf.String())
	return list, tokens.Count(wire)
}

func names(list []mcp.Tool) []string {
	var out []string
	for _, tool := range list {
		out = append(out, tool.Name)
	}
	return out
}

// The default tools/list stays within its budget while every group is one
// --caps away; each group adds its own tools and no others; every argument of
// every tool is described and every tool states all four hints.
func TestCapabilityGroups(t *testing.T) {
	t.Parallel()
	core, coreTokens := listed(t, Config{Caps: []string{}})
	t.Logf("default: %d tools, %d o200k tokens", len(core), coreTokens)
	if coreTokens > defaultListBudget {
		t.Errorf("the default tools/list costs %d o200k tokens, more than %d", coreTokens, defaultListBudget)
	}
	if !slices.Contains(names(core), "cdp") {
		t.Error("the default list lacks the raw cdp passthrough")
	}
	for _, a := range actions.All() {
		if got := slices.Contains(names(core), a.Name); got != (a.Group == "") {
			t.Errorf("default list offers %s (group %q): %v", a.Name, a.Group, got)
		}
	}
	for _, g := range Caps() {
		list, n := listed(t, Config{Caps: []string{g}})
		t.Logf("--caps %s: %d tools, %d o200k tokens (%+d)", g, len(list), n, n-coreTokens)
		for _, tool := range list {
			a := actions.ByName(tool.Name)
			switch {
			case g == CapSlim && !slices.Contains(slimTools, tool.Name):
				t.Errorf("--caps slim offers %s", tool.Name)
			case g != CapAll && g != CapSlim && a != nil && a.Group != "" && a.Group != g:
				t.Errorf("--caps %s offers %s of group %s", g, tool.Name, a.Group)
			}
		}
		if g == CapAll {
			checkDescribed(t, list)
			// run_browser_agent is not listed: this client has no model.
			if want := len(actions.All()); len(list) != want {
				t.Errorf("--caps all offers %d tools, want %d", len(list), want)
			}
		}
	}
	// With a model to run on, run_browser_agent is listed too.
	agent := Config{Caps: []string{}, Agent: AgentConfig{LLM: agentloop.OpenAI{BaseURL: "http://127.0.0.1:9/v1"}}}
	if list, n := listed(t, agent); !slices.Contains(names(list), agentToolName) {
		t.Errorf("with --llm-base-url the list lacks %s", agentToolName)
	} else if t.Logf("default with run_browser_agent: %d tools, %d o200k tokens", len(list), n); n > defaultListBudget {
		t.Errorf("with run_browser_agent the default tools/list costs %d o200k tokens, more than %d", n, defaultListBudget)
	}
	// --tools names a tool of any group.
	if list, _ := listed(t, Config{Tools: []string{"drag", "mouse"}}); !slices.Equal(names(list), []string{"drag", "mouse"}) {
		t.Errorf("--tools drag,mouse offers %v", names(list))
	}
	if err := CheckCaps([]string{"vision", "nope"}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("CheckCaps of an unknown group: %v", err)
	}
}

// checkDescribed fails for a tool with an argument that has no description or
// a hint left unset.
func checkDescribed(t *testing.T, list []mcp.Tool) {
	t.Helper()
	for _, tool := range list {
		a := tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s does not state all four hints", tool.Name)
		}
		raw := tool.RawInputSchema
		if raw == nil {
			raw, _ = json.Marshal(tool.InputSchema)
		}
		var schema struct {
			Properties map[string]struct {
				Description string `json:"description"`
				Items       struct {
					Properties map[string]struct {
						Description string `json:"description"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatalf("%s: schema %s: %v", tool.Name, raw, err)
		}
		for name, p := range schema.Properties {
			if p.Description == "" {
				t.Errorf("%s: argument %s has no description", tool.Name, name)
			}
			for field, f := range p.Items.Properties {
				if f.Description == "" {
					t.Errorf("%s: %s[].%s has no description", tool.Name, name, field)
				}
			}
		}
	}
}
