package cdpclient

import (
	"context"
	"strconv"
	"sync"

	"github.com/mafredri/cdp/protocol/dom"
)

// refKey identifies a DOM node across snapshots: the session that owns it ("" for
// the page itself) and its backend node id, which is stable while the node lives.
type refKey struct {
	session string
	backend dom.BackendNodeID
}

// refTable numbers the elements of a page. A node keeps its number for as long as
// it exists; numbers are never reused, so a stale ref can never hit another node.
type refTable struct {
	mu    sync.Mutex
	last  int
	byRef map[int]refKey
	byKey map[refKey]int
}

func newRefTable() *refTable {
	return &refTable{byRef: map[int]refKey{}, byKey: map[refKey]int{}}
}

// assign returns the ref of a node, numbering it if it has none yet.
func (t *refTable) assign(k refKey) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.byKey[k]; ok {
		return r
	}
	t.last++
	t.byRef[t.last] = k
	t.byKey[k] = t.last
	return t.last
}

// used reports whether any ref was ever handed out.
func (t *refTable) used() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last > 0
}

// lookup returns the node a ref names.
func (t *refTable) lookup(ref int) (refKey, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k, ok := t.byRef[ref]
	return k, ok
}

// refOf returns the ref of a node if it has one.
func (t *refTable) refOf(k refKey) (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.byKey[k]
	return r, ok
}

// forget drops the given refs (nodes that are gone); their numbers stay used.
func (t *refTable) forget(refs []int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range refs {
		if k, ok := t.byRef[r]; ok {
			delete(t.byKey, k)
			delete(t.byRef, r)
		}
	}
}

func (p *Page) resolveRef(ctx context.Context, ref string) (*Element, error) {
	n, err := strconv.Atoi(ref)
	if err != nil || n <= 0 {
		return nil, argError("refs are the numbers at the start of snapshot lines, e.g. \"12\"", "%q is not a ref", ref)
	}
	k, ok := p.refs.lookup(n)
	if !ok {
		hint := "take a snapshot to get refs"
		if p.refs.used() {
			hint = "take a new snapshot: the page has changed or the ref never existed"
		}
		return nil, &Error{Code: CodeNotFound, Msg: "ref " + ref + " is not on the page", Hint: hint}
	}
	el := &Element{p: p, c: p.c, backend: k.backend, ref: ref}
	if k.session != "" {
		p.mu.Lock()
		f := p.frames[k.session]
		p.mu.Unlock()
		if f == nil {
			return nil, el.gone()
		}
		el.c, el.frame = f.c, f
	}
	r, err := el.c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(k.backend).SetObjectGroup(objectGroup))
	if err != nil || r.Object.ObjectID == nil {
		p.refs.forget([]int{n})
		return nil, el.gone()
	}
	el.object = *r.Object.ObjectID
	return el, nil
}
