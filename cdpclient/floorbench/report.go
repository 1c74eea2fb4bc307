package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// server is one MCP server's medians from an mcpbench result file.
type server struct {
	name      string
	scenarios map[string]float64            // scenario → median ms of a repetition
	steps     map[string]map[string]float64 // scenario → step → median ms
}

func loadMCPBench(path string) ([]server, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-mcpbench: %w", err)
	}
	var f struct {
		Results []struct {
			Server    string `json:"server"`
			Scenarios []struct {
				Scenario string  `json:"scenario"`
				MedianMs float64 `json:"medianMs"`
				Steps    []struct {
					Name     string  `json:"name"`
					MedianMs float64 `json:"medianMs"`
				} `json:"steps"`
			} `json:"scenarios"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("-mcpbench %s: %w", path, err)
	}
	var out []server
	for _, r := range f.Results {
		s := server{name: r.Server, scenarios: map[string]float64{}, steps: map[string]map[string]float64{}}
		for _, sc := range r.Scenarios {
			s.scenarios[sc.Scenario] = sc.MedianMs
			s.steps[sc.Scenario] = map[string]float64{}
			for _, st := range sc.Steps {
				s.steps[sc.Scenario][st.Name] = st.MedianMs
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// withOurs is servers with cdpmcp's column taken from timings measured here
// rather than from the mcpbench file.
func withOurs(servers []server, paired []timing) []server {
	s := server{name: "ours", scenarios: map[string]float64{}, steps: map[string]map[string]float64{}}
	for _, t := range paired {
		s.scenarios[t.scenario] = ms(t.total)
		s.steps[t.scenario] = map[string]float64{}
		for _, st := range t.steps {
			s.steps[t.scenario][st] = ms(t.byStep[st])
		}
	}
	out := []server{s}
	for _, p := range servers {
		if p.name != "ours" {
			out = append(out, p)
		}
	}
	return out
}

// table is the floor beside the servers: a row per step and one per scenario
// (the median repetition), with ours ÷ floor and the fastest peer ÷ ours.
// paired says ours was measured in turn with the floor.
func table(floor []timing, servers []server, reps int, paired bool) string {
	var ours *server
	var peers []server
	for i, s := range servers {
		if s.name == "ours" {
			ours = &servers[i]
		} else {
			peers = append(peers, s)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### The floor: raw CDP (mafredri/cdp), medians of %d repetitions, ms\n\n", reps)
	if paired {
		b.WriteString("ours is measured here, a repetition of it and one of the floor in turn, through its MCP tools over stdio (the peers come from mcpbench, run before).\n\n")
	}
	head := "| scenario | step | floor |"
	rule := "|---|---|---|"
	if ours != nil {
		head += " ours | ours ÷ floor |"
		rule += "---|---|"
	}
	for _, p := range peers {
		head += " " + p.name + " |"
		rule += "---|"
	}
	if ours != nil && len(peers) > 0 {
		head += " fastest peer ÷ ours |"
		rule += "---|"
	}
	b.WriteString(head + "\n" + rule + "\n")
	row := func(scenario, step string, f float64, get func(server) (float64, bool)) {
		fmt.Fprintf(&b, "| %s | %s | %.1f |", scenario, step, f)
		var o float64
		if ours != nil {
			v, ok := get(*ours)
			o = v
			fmt.Fprintf(&b, " %s | %s |", num(v, ok), ratio(v, f, ok))
		}
		fastest := 0.0
		for _, p := range peers {
			v, ok := get(p)
			fmt.Fprintf(&b, " %s |", num(v, ok))
			if ok && (fastest == 0 || v < fastest) {
				fastest = v
			}
		}
		if ours != nil && len(peers) > 0 {
			fmt.Fprintf(&b, " %s |", ratio(fastest, o, fastest > 0 && o > 0))
		}
		b.WriteString("\n")
	}
	for _, t := range floor {
		for _, st := range t.steps {
			row(t.scenario, st, ms(t.byStep[st]), func(s server) (float64, bool) {
				v, ok := s.steps[t.scenario][st]
				return v, ok
			})
		}
		row(t.scenario, "**all**", ms(t.total), func(s server) (float64, bool) {
			v, ok := s.scenarios[t.scenario]
			return v, ok
		})
	}
	return b.String()
}

func num(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%.1f", v)
}

func ratio(a, b float64, ok bool) string {
	if !ok || b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// writeJSON writes the floor's medians: {scenario: {step: ms, "all": ms}}.
func writeJSON(path string, floor []timing) error {
	out := map[string]map[string]float64{}
	for _, t := range floor {
		m := map[string]float64{"all": ms(t.total)}
		for _, st := range t.steps {
			m[st] = ms(t.byStep[st])
		}
		out[t.scenario] = m
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
