package tools

import (
	"context"
	"log/slog"
	"sort"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// Named contexts: a session may keep isolated browser contexts besides its
// own, by name (the contexts tool); the current one is where every tool acts.

var _ actions.Contexts = sessionContexts{}

// sessionContexts gives the calling MCP session's named contexts.
type sessionContexts struct{ ss *sessions }

func (sc sessionContexts) state(ctx context.Context) (*clientState, error) {
	if _, err := sc.ss.context(ctx); err != nil { // connects, and resets after a restart
		return nil, err
	}
	sc.ss.mu.Lock()
	defer sc.ss.mu.Unlock()
	return sc.ss.byID[sc.ss.key(ctx)], nil
}

// Named lists the session's contexts, default first.
func (sc sessionContexts) Named(ctx context.Context) ([]string, string) {
	st, err := sc.state(ctx)
	if err != nil || st == nil {
		return []string{actions.DefaultContext}, actions.DefaultContext
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	names := make([]string, 0, len(st.named))
	for n := range st.named {
		names = append(names, n)
	}
	sort.Strings(names)
	cur := st.current
	if cur == "" {
		cur = actions.DefaultContext
	}
	return append([]string{actions.DefaultContext}, names...), cur
}

// Use makes a named context current, creating it if asked.
func (sc sessionContexts) Use(ctx context.Context, name string, create bool) (*cdpclient.BrowserContext, error) {
	st, err := sc.state(ctx)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if name == actions.DefaultContext {
		st.current = ""
		return st.bc, nil
	}
	bc := st.named[name]
	switch {
	case bc != nil && create:
		return nil, &cdpclient.ArgError{Msg: "a context named " + name + " exists already", Hint: `switch to it with {"op":"use","name":"` + name + `"}`}
	case bc == nil && !create:
		return nil, &cdpclient.ArgError{Msg: "no context named " + name, Hint: `create it with {"op":"new","name":"` + name + `"}`}
	case bc == nil:
		if bc, err = st.bc.Browser().NewContext(ctx); err != nil {
			return nil, err
		}
		bc.UseSecrets(st.bc.Secrets()) // the session's tenant's

		if st.named == nil {
			st.named = map[string]*cdpclient.BrowserContext{}
		}
		st.named[name] = bc
	}
	st.current = name
	return bc, nil
}

// Drop closes a named context.
func (sc sessionContexts) Drop(ctx context.Context, name string) error {
	st, err := sc.state(ctx)
	if err != nil {
		return err
	}
	st.mu.Lock()
	bc := st.named[name]
	delete(st.named, name)
	if st.current == name {
		st.current = ""
	}
	st.mu.Unlock()
	if name == actions.DefaultContext {
		return &cdpclient.ArgError{Msg: "the default context cannot be closed", Hint: "close its tabs with closePage"}
	}
	if bc == nil {
		return &cdpclient.ArgError{Msg: "no context named " + name, Hint: `list them with {"op":"list"}`}
	}
	actions.EndRecording(bc)
	return bc.Close(ctx)
}

// currentLocked is the context tools act in: the current named one, else the
// session's own. st.mu is held.
func (st *clientState) currentLocked() *cdpclient.BrowserContext {
	if bc := st.named[st.current]; bc != nil {
		return bc
	}
	return st.bc
}

// closeNamed closes the session's named contexts (the session ended, or the
// browser they lived in is gone).
func closeNamed(named map[string]*cdpclient.BrowserContext) {
	for name, bc := range named {
		actions.EndRecording(bc)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := bc.Close(ctx); err != nil {
			slog.Debug("close named context", "name", name, "err", err)
		}
		cancel()
	}
}
