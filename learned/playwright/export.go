// Package playwright writes a learned script as a Playwright test a team can
// keep in its own suite: each element found as the script finds it, by role
// and name (getByRole) or by its label (getByLabel), each param read from the
// environment (a secret never written), each outcome an expect. It knows
// nothing of browsers: it only writes text.
package playwright

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
	"github.com/cdpmcp/cdpmcp/learned"
)

// Export writes s as a Playwright test file (TypeScript that is also plain
// JavaScript, for a *.spec.ts). START_URL moves it to another copy of the
// site, as a script job's url does; PARAM_<NAME> sets a param.
func Export(s *learned.Script) ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	w := &writer{s: s, start: s.Start()}
	w.header()
	w.line("test(%s, async ({ page }) => {", js(w.title()))
	for name, p := range sortedParams(s) {
		if p.Secret {
			w.line("  if (!params.%s) throw new Error(%s);", name, js("set PARAM_"+strings.ToUpper(name)+": the secret param "+name+" is never kept in the script"))
		}
	}
	for i, st := range s.Steps {
		w.line("")
		w.line("  // %d. %s", i+1, oneLine(st.Describe()))
		w.step(st, i == firstNavigate(s))
	}
	w.line("});")
	return w.b.Bytes(), nil
}

type writer struct {
	s     *learned.Script
	start string
	b     bytes.Buffer
}

func (w *writer) line(format string, args ...any) {
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

func (w *writer) title() string {
	if w.s.Source.Task != "" {
		return "learned: " + w.s.Source.Task
	}
	return "learned: " + w.start
}

func (w *writer) header() {
	src := w.s.Source
	w.line("// A test written by cdpmcp script export from a script learned by %s on %s.", src.From, src.Created.Format("2006-01-02"))
	w.line("// Elements are found by role and name, or by label, as the script finds them.")
	w.line("// START_URL moves it to another copy of the site; PARAM_<NAME> sets a param.")
	w.line("import { test, expect } from '@playwright/test';")
	w.line("")
	w.line("const START = process.env.START_URL ?? %s;", js(w.start))
	w.line("const params = {")
	for name, p := range sortedParams(w.s) {
		env := "process.env.PARAM_" + strings.ToUpper(name)
		if p.Secret {
			w.line("  %s: %s ?? '', // secret: set it in the environment", name, env)
		} else {
			w.line("  %s: %s ?? %s,", name, env, js(p.Default))
		}
	}
	w.line("};")
	w.line("// esc makes a text a regular expression that matches it as it is.")
	w.line("const esc = (s) => s.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&');")
	w.line("")
}

// step writes one step's calls and its expectations.
func (w *writer) step(st learned.Step, first bool) {
	var loc string
	if st.Target != nil {
		loc = locator(*st.Target)
	}
	switch st.Action {
	case learned.Navigate:
		if first {
			w.line("  await page.goto(START);")
		} else {
			w.line("  await page.goto(%s);", w.address(st.URL))
		}
	case learned.Click:
		var opts []string
		if st.ClickCount > 1 {
			opts = append(opts, fmt.Sprintf("clickCount: %d", st.ClickCount))
		}
		if len(st.Modifiers) > 0 {
			opts = append(opts, "modifiers: "+jsList(st.Modifiers))
		}
		if len(opts) > 0 {
			w.line("  await %s.click({ %s });", loc, strings.Join(opts, ", "))
		} else {
			w.line("  await %s.click();", loc)
		}
	case learned.Fill:
		switch role := st.Target.Role; {
		case (role == "checkbox" || role == "radio" || role == "switch") && st.Value == "true":
			w.line("  await %s.check();", loc)
		case role == "checkbox" || role == "switch":
			w.line("  await %s.uncheck();", loc)
		case role == "combobox" && st.Target.Tag == "select", role == "listbox":
			w.line("  await %s.selectOption(%s);", loc, value(st.Value))
		default:
			w.line("  await %s.fill(%s);", loc, value(st.Value))
		}
	case learned.Type:
		if st.Clear {
			w.line("  await %s.fill(%s);", loc, value(st.Value))
		} else {
			w.line("  await %s.pressSequentially(%s);", loc, value(st.Value))
		}
		if st.Submit {
			w.line("  await %s.press('Enter');", loc)
		}
	case learned.Select:
		vals := make([]string, len(st.Values))
		for i, v := range st.Values {
			vals[i] = value(v)
		}
		w.line("  await %s.selectOption([%s]);", loc, strings.Join(vals, ", "))
	case learned.Press:
		if loc != "" {
			w.line("  await %s.press(%s);", loc, js(st.Key))
		} else {
			w.line("  await page.keyboard.press(%s);", js(st.Key))
		}
	case learned.Upload:
		files := make([]string, len(st.Files))
		for i, f := range st.Files {
			files[i] = value(f)
		}
		w.line("  await %s.setInputFiles([%s]);", loc, strings.Join(files, ", "))
	case learned.Wait:
		what := loc
		if what == "" {
			what = fmt.Sprintf("page.getByText(%s).first()", textPattern(st.Text))
		}
		if st.State == "hidden" || st.State == "detached" {
			w.line("  await expect(%s).toBeHidden();", what)
		} else {
			w.line("  await expect(%s).toBeVisible();", what)
		}
	case learned.Extract:
		sel := st.Selector
		if sel == "" {
			sel = "body"
		}
		w.line("  console.log(await page.locator(%s).innerText());", js(sel))
	}
	w.expect(st.Expect)
}

// expect writes a step's outcome checks.
func (w *writer) expect(e *learned.Expect) {
	if e == nil {
		return
	}
	if e.URL != "" {
		if rest, ok := w.underStart(e.URL); ok {
			w.line("  await expect(page).toHaveURL(new RegExp(esc(new URL(%s, START).pathname.replace(/\\/$/, '')) + '/?([?#]|$)'));", js(withoutQuery(rest)))
		} else if u, err := url.Parse(e.URL); err == nil && u.Path != "" {
			w.line("  await expect(page).toHaveURL(%s);", regexLiteral(regexp.QuoteMeta(strings.TrimSuffix(u.Path, "/"))+`/?([?#]|$)`))
		}
	}
	if e.Title != "" {
		w.line("  await expect(page).toHaveTitle(%s);", textPattern(e.Title))
	}
	if e.Text != "" {
		w.line("  await expect(page.getByText(%s).first()).toBeVisible();", textPattern(e.Text))
	}
}

// address is an address of the script in the test: under the start's
// folder, relative to START (so START_URL moves it too).
func (w *writer) address(u string) string {
	if rest, ok := w.underStart(u); ok {
		return fmt.Sprintf("new URL(%s, START).href", js(rest))
	}
	return value(u)
}

// underStart is an address relative to the start's folder, when it is
// under it.
func (w *writer) underStart(u string) (string, bool) {
	su, err := url.Parse(w.start)
	if w.start == "" || err != nil || su.Host == "" {
		return "", false
	}
	dir := su.Scheme + "://" + su.Host + su.Path[:strings.LastIndex(su.Path, "/")+1]
	return strings.CutPrefix(u, dir)
}

func withoutQuery(u string) string {
	u, _, _ = strings.Cut(u, "#")
	u, _, _ = strings.Cut(u, "?")
	return u
}

// locator finds an element as the script does: by role and name, by its
// label, its placeholder, its name attribute or, last, its CSS path.
func locator(d locate.Description) string {
	switch {
	case d.Label != "" && d.Tag == "select":
		// A label around a select holds its options' text too, which
		// Playwright reads as part of the label: match its start.
		return fmt.Sprintf("page.getByLabel(%s)", regexLiteral("^"+regexp.QuoteMeta(d.Label)))
	case d.Label != "" && d.Role != "button" && d.Role != "link":
		return fmt.Sprintf("page.getByLabel(%s, { exact: true })", js(d.Label))
	case d.Role != "" && d.Name != "":
		return fmt.Sprintf("page.getByRole(%s, { name: %s, exact: true })", js(d.Role), js(d.Name))
	case d.Placeholder != "":
		return fmt.Sprintf("page.getByPlaceholder(%s, { exact: true })", js(d.Placeholder))
	case d.Field != "":
		return fmt.Sprintf("page.locator(%s)", js(fmt.Sprintf("%s[name=%q]", d.Tag, d.Field)))
	case d.Role != "":
		return fmt.Sprintf("page.getByRole(%s).first()", js(d.Role))
	}
	return fmt.Sprintf("page.locator(%s)", js(d.CSS))
}
