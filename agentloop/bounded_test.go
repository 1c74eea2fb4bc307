package agentloop

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/tokens"
)

// boundedCases are the pages of TestPromptStaysBounded and BenchmarkAgentStep.
var boundedCases = []struct {
	page   string
	vision bool
}{
	{"/agent/list.html", false},
	{"/corpus/mozilla-1.html", false},
	{"/corpus/wikipedia.html", false},
	{"/corpus/mozilla-1.html", true},
}

// readingRun runs a scripted model for 9 steps on page: it opens the page,
// scrolls 7 times, and is done; it returns the step records and the times
// from each of the model's answers to the loop's next request. The model
// takes think to answer.
func readingRun(t testing.TB, page string, vision bool, think time.Duration) ([]StepRecord, []time.Duration) {
	t.Helper()
	env := newEnv(t)
	turns := []turn{{reply: answer(Brain{Summary: "open"}, `{"go_to_url": {"url": "`+site.URL(page)+`"}}`)}}
	for i := 2; i <= 8; i++ {
		dir := "down"
		if i%3 == 0 {
			dir = "up"
		}
		turns = append(turns, turn{reply: answer(Brain{
			PrevActionEvaluation: "Success - the page scrolled as intended",
			ImportantContents:    fmt.Sprintf("Section %d: nothing relevant yet", i),
			TaskProgress:         fmt.Sprintf("1. Opened the page 2. Read %d screens", i-1),
			FuturePlans:          "1. Keep reading 2. Report the answer",
			Thought:              "The answer is not visible yet; read on.",
			Summary:              "Scroll " + dir,
		}, `{"scroll": {"direction": "`+dir+`", "amount": 600}}`)})
	}
	turns = append(turns, turn{reply: doneAnswer})
	m := newScriptedModel(t, turns...)
	m.think = think
	out, err := Run(testCtx(t), env, m.openAI(), Config{MaxSteps: 9, Vision: vision, RunDir: runDir(t)}, Task{Task: "Find the release date mentioned on this page"})
	if err != nil || !out.Success {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	return readSteps(t, out), m.between()
}

// Over 8 steps on one page the user message stays bounded (step 8 costs at
// most 1.5× step 2), and costs little beyond the element list. The figures
// are logged: server time a step without the model (BenchmarkAgentStep
// measures it), user message and element list tokens a step.
func TestPromptStaysBounded(t *testing.T) {
	for _, tc := range boundedCases {
		t.Run(fmt.Sprintf("%s vision=%t", tc.page, tc.vision), func(t *testing.T) {
			steps, _ := readingRun(t, tc.page, tc.vision, 0)
			var server []int64
			var lines []string
			for _, s := range steps {
				server = append(server, s.ServerMs)
				lines = append(lines, fmt.Sprintf("step %d: server %d ms, user %d tokens, elements %d, rest %d (o200k %d)", s.Step, s.ServerMs, s.UserTokens, s.SnapshotTokens, s.UserTokens-s.SnapshotTokens, tokens.Count(trimElems(s.User))))
			}
			s2, s8 := steps[1], steps[7]
			if testing.Verbose() {
				t.Logf("STEP2:\n%s\nSTEP8:\n%s", trimElems(s2.User), trimElems(s8.User))
			}
			t.Logf("%s\nserver median %d ms; step 8 / step 2 = %.2f", strings.Join(lines, "\n"), median(server), float64(s8.UserTokens)/float64(s2.UserTokens))
			if float64(s8.UserTokens) > 1.5*float64(s2.UserTokens) {
				t.Errorf("step 8 costs %d tokens, step 2 %d: more than 1.5×", s8.UserTokens, s2.UserTokens)
			}
			// The message around the element list, before the model has
			// written any memory: at most 200 o200k tokens.
			if n := tokens.Count(trimElems(s2.User)); n > 200 {
				t.Errorf("step 2: %d o200k tokens besides the element list", n)
			}
			for _, s := range steps[1:8] {
				if rest := s.UserTokens - s.SnapshotTokens; rest > 300 {
					t.Errorf("step %d: the message costs %d tokens beyond the element list", s.Step, rest)
				}
			}
		})
	}
}

func trimElems(user string) string {
	head, rest, _ := strings.Cut(user, "6. Interactive elements:\n")
	_, prev, _ := strings.Cut(rest, "\n\n**Previous Actions**")
	return head + "6. Interactive elements:\n[…]\n**Previous Actions**" + prev
}

// BenchmarkAgentStep reports cdpmcp's own time in run_browser_agent, the
// medians over the 9 steps of scripted runs, on a small page, a corpus
// article, a Wikipedia article, without and with the annotated screenshot:
// server-ms/step is a step's time without the model's (reading the page,
// the prompt, the answer's parsing, not the actions); between-ms is the
// time from the model's answer to the loop's next request, as the model
// server sees it (the actions, reading the page again, the prompt);
// floor-ms is the same steps over raw CDP (readingFloor): the wheel, the
// page read in one script and, with vision, its picture, what between-ms
// cannot go below on this browser.
//
// The scripted model answers at once, so the step's actions also wait for
// the record's screenshot, which a model's own time hides without vision
// (the picture is taken while the model thinks): the model=300ms runs show
// between-ms then. A model that answers faster than the picture is taken
// has it asked for before the walk from its second step (captureFirst),
// which moves the walk's time from between-ms to server-ms/step.
//
//	go test -run '^$' -bench AgentStep -benchtime 3x ./agentloop
func BenchmarkAgentStep(b *testing.B) {
	type run struct {
		page   string
		vision bool
		think  time.Duration
	}
	var runs []run
	for _, tc := range boundedCases {
		runs = append(runs, run{tc.page, tc.vision, 0})
	}
	// With vision the picture is the next request's: the small page and
	// the long article too.
	runs = append(runs, run{"/agent/list.html", true, 0}, run{"/corpus/wikipedia.html", true, 0})
	for _, tc := range boundedCases {
		if !tc.vision {
			runs = append(runs, run{tc.page, false, 300 * time.Millisecond})
		}
	}
	for _, tc := range runs {
		name := fmt.Sprintf("%s vision=%t", strings.TrimPrefix(tc.page, "/"), tc.vision)
		if tc.think > 0 {
			name += fmt.Sprintf(" model=%v", tc.think)
		}
		b.Run(name, func(b *testing.B) {
			var server, between, floor []int64
			for b.Loop() {
				steps, gaps := readingRun(b, tc.page, tc.vision, tc.think)
				for _, s := range steps {
					server = append(server, s.ServerMs)
				}
				for _, g := range gaps {
					between = append(between, g.Microseconds())
				}
				for _, d := range readingFloor(b, tc.page, tc.vision, tc.think) {
					floor = append(floor, d.Microseconds())
				}
			}
			b.ReportMetric(float64(median(server)), "server-ms/step")
			b.ReportMetric(float64(median(between))/1000, "between-ms")
			b.ReportMetric(float64(median(floor))/1000, "floor-ms")
		})
	}
}
