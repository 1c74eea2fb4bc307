package replay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/learned"
)

// repair hands step i, which did not go as learned, to the agent and puts
// what it did in the step's place. now is how many steps took its place;
// why, when not empty, says why the step stays failed. err is ctx's.
func (r *replayer) repair(ctx context.Context, rep *Report, i int, st learned.Step, miss *mismatch) (now int, why string, err error) {
	p, err := r.env.Page(ctx, "")
	if err != nil {
		return 0, err.Error(), ctx.Err()
	}
	startURL := p.URL()
	got, err := r.opts.Repair(ctx, repairTask(st, r.script, r.v, miss))
	if ctx.Err() != nil {
		return 0, "", ctx.Err()
	}
	if err != nil {
		return 0, err.Error(), nil
	}
	rep.ModelCalls += got.ModelCalls
	if !got.OK {
		return 0, "the agent did not finish: " + got.Summary, nil
	}
	steps, err := r.adopt(got.Script, startURL, st)
	if err != nil {
		return 0, err.Error(), nil
	}
	if st.Action == learned.Fill || st.Action == learned.Type {
		// The agent pointed at the field; the value is the script's own
		// (a secret never reaches the model).
		var target *learned.Step
		for k := range steps {
			if steps[k].Target != nil {
				target = &steps[k]
			}
		}
		if target == nil {
			return 0, "the agent did not point at a field", nil
		}
		redo := st
		redo.Target, redo.Intent = target.Target, ""
		if _, miss, err := r.step(ctx, &redo); err != nil || miss != nil {
			if err != nil {
				return 0, "", err
			}
			return 0, fmt.Sprintf("the field the agent pointed at (%s) did not take the value: %s", target.Target, miss.found), nil
		}
		steps = []learned.Step{redo}
	} else if st.Expect != nil {
		if miss := r.expect(ctx, p, st.Expect); miss != nil {
			return 0, fmt.Sprintf("after the agent's steps, looked for %s; found %s", miss.looked, miss.found), nil
		}
	}
	for k := range steps {
		steps[k].Intent = ""
		steps[k].Intent = steps[k].Describe()
	}
	r.script.Steps = append(r.script.Steps[:i], append(steps, r.script.Steps[i+1:]...)...)
	ch := Change{Step: i + 1, Was: st.Describe(), Why: fmt.Sprintf("looked for %s; found %s", miss.looked, miss.found)}
	for _, s := range steps {
		ch.Now = append(ch.Now, s.Describe())
	}
	rep.Repaired = append(rep.Repaired, ch)
	rep.Changed = true
	r.script.Notes = append(r.script.Notes, fmt.Sprintf("%s: step %d (%s) redone by the agent as: %s",
		time.Now().UTC().Format(time.DateOnly), i+1, ch.Was, strings.Join(ch.Now, "; ")))
	return len(steps), "", nil
}

// adopt takes the steps of the agent's learned script into the replayed
// one: without the navigate to where it started, without what it only read
// (unless the step was a read), its params renamed to the script's where the
// values agree or added where new.
func (r *replayer) adopt(s *learned.Script, startURL string, st learned.Step) ([]learned.Step, error) {
	if s == nil {
		return nil, fmt.Errorf("the agent took no step a script repeats")
	}
	rename := map[string]string{}
	for name, p := range s.Params {
		if p.Secret {
			return nil, fmt.Errorf("the agent typed into a secret field (%s): a script's secret is never given to a model", p.For)
		}
		to := ""
		for ours, v := range r.v {
			if !r.script.Params[ours].Secret && v == p.Default {
				to = ours
				break
			}
		}
		if to == "" {
			to = name
			for k := 2; r.script.Params[to] != (learned.Param{}); k++ {
				to = fmt.Sprintf("%s_%d", name, k)
			}
			r.script.Params[to] = p
			r.v[to] = p.Default
		}
		rename[name] = to
	}
	var out []learned.Step
	for k, a := range s.Steps {
		if k == 0 && a.Action == learned.Navigate && learned.SamePage(a.URL, startURL) {
			continue
		}
		if a.Action == learned.Extract && st.Action != learned.Extract {
			continue
		}
		a.Value = renameRefs(a.Value, rename)
		for j := range a.Values {
			a.Values[j] = renameRefs(a.Values[j], rename)
		}
		if a.Expect != nil {
			// The agent's texts hold this run's values where the script's
			// params belong: a later run with other values checks for its own.
			e := *a.Expect
			e.Text = r.v.Template(renameRefs(e.Text, rename), func(name string) bool { return r.script.Params[name].Secret })
			a.Expect = &e
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the agent took no step a script repeats")
	}
	return out, nil
}

func renameRefs(s string, to map[string]string) string {
	for from, name := range to {
		s = strings.ReplaceAll(s, "{{"+from+"}}", "{{"+name+"}}")
	}
	return s
}

// repairTask is what the agent is asked for a step that did not go as
// learned: that one step, on the page as it is, and nothing else. A value a
// field takes is never in it: the agent only points at the field.
func repairTask(st learned.Step, s *learned.Script, v learned.Values, m *mismatch) string {
	var b strings.Builder
	b.WriteString("You are redoing ONE step of a learned browser script; the page changed since it was learned. ")
	what := st.Describe()
	if st.Action == learned.Select && !usesSecret(st, s) {
		what = fmt.Sprintf("select %s in %s", v.Expand(strings.Join(st.Values, ", ")), st.Target)
	}
	fmt.Fprintf(&b, "The step: %s. ", what)
	if m.acted {
		fmt.Fprintf(&b, "It was done, but it should have led to %s, and the page shows %s. ", m.looked, m.found)
	} else {
		fmt.Fprintf(&b, "The script looked for %s and found %s. ", m.looked, m.found)
	}
	switch st.Action {
	case learned.Fill, learned.Type:
		fmt.Fprintf(&b, "Click once into the field that takes this value now (it was %s), type nothing, then say done. ", st.Target)
	default:
		b.WriteString("Do this one step on the current page, where its element may be named or placed differently now, then say done. ")
	}
	b.WriteString("Do nothing else. If the step cannot be done on this page, say done with success false and why.")
	return b.String()
}

// usesSecret reports whether a step's values name a secret param.
func usesSecret(st learned.Step, s *learned.Script) bool {
	for _, val := range append([]string{st.Value}, st.Values...) {
		for name, p := range s.Params {
			if p.Secret && strings.Contains(val, "{{"+name+"}}") {
				return true
			}
		}
	}
	return false
}
