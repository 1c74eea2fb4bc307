package actions

import (
	"context"
	"net/url"
	"regexp"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
	"github.com/cdpmcp/cdpmcp/learned"
)

// What a learned step led to, for a replay to check (learn.go).

// expectAfter is what a step led to: the page it loaded (address, title,
// heading), or a text the action made appear; nil for steps that only set
// a value.
func expectAfter(ctx context.Context, p *cdpclient.Page, st learned.Step, before string, res *Result) *learned.Expect {
	switch st.Action {
	case learned.Fill, learned.Upload, learned.Wait, learned.Extract:
		return nil
	case learned.Type:
		if !st.Submit {
			return nil
		}
	}
	fb := res.Feedback
	after := p.URL()
	if st.Action == learned.Navigate || after != before || (fb != nil && fb.Delta != nil && fb.Delta.URL != "") {
		e := &learned.Expect{URL: withoutQuery(after)}
		if f, err := locate.PageFacts(ctx, p); err == nil {
			e.Title, e.Text = f.Title, f.Heading
		}
		return e
	}
	if fb == nil || fb.Delta == nil {
		return nil
	}
	if text := appeared(fb.Delta); text != "" {
		return &learned.Expect{Text: text}
	}
	return nil
}

func withoutQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

var markup = regexp.MustCompile(`<[^>]*>|^\d+\[:\]|^_\[:\]`)

// appeared is the first text an action made appear: a notice that came and
// went, an element added, a text changed.
func appeared(d *feedback.Delta) string {
	var texts []string
	texts = append(texts, d.Flash...)
	for _, a := range d.Added {
		texts = append(texts, a[1])
	}
	for _, t := range d.Text {
		texts = append(texts, t[1])
	}
	for _, t := range texts {
		t = strings.Join(strings.Fields(markup.ReplaceAllString(t, " ")), " ")
		if len([]rune(t)) >= 3 {
			if r := []rune(t); len(r) > 120 {
				t = string(r[:120])
			}
			return t
		}
	}
	return ""
}
