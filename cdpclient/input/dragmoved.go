package input

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// What a drag moved: the item a drag of an element carries, and where it sat
// before and after (js/drag.js).

// place is where a dragged item sits (js/drag.js placeOf).
type place struct {
	Gone  bool   `json:"gone"`
	Where string `json:"where"`
	Index int    `json:"index"`
	Of    int    `json:"of"`
	Name  string `json:"name"`
}

func (pl *place) String() string {
	s := fmt.Sprintf("%d/%d", pl.Index, pl.Of)
	if pl.Where != "" {
		s = pl.Where + " " + s
	}
	return s
}

// dragItem returns what a drag of e moves (e, or the list item it is a handle
// of) and where it is now. On failure the item is e, its place unknown.
func dragItem(ctx context.Context, e *cdpclient.Element) (*cdpclient.Element, *place) {
	item := e
	if it, err := related(ctx, e, "dragItem"); err == nil && it != nil {
		item = it
	}
	var pl place
	if err := call(ctx, item, "placeOf", &pl); err != nil {
		return item, nil
	}
	return item, &pl
}

// placeOfLater is placeOf read 30 ms from now.
var placeOfLater = "function() { return new Promise((r) => setTimeout(() => r((" + funcs.Func("placeOf") + ").call(this)), 30)); }"

// moved says what the drag did to the item: where it went, or that it stayed.
func moved(ctx context.Context, e *cdpclient.Element, before *place, html5 bool) string {
	how := "pointer drag"
	if html5 {
		how = "HTML5 drag"
	}
	if before == nil {
		return how + " done"
	}
	// The page's handlers may move the item a moment after the drop (a
	// framework re-rendering): read its place once that moment has passed.
	var after place
	if err := e.Call(ctx, "placeOf", placeOfLater, &after); err != nil {
		return how + " done"
	}
	name := fmt.Sprintf("%q", before.Name)
	if ref, ok := e.Ref(ctx); ok {
		name = fmt.Sprintf("%d %q", ref, before.Name)
	}
	switch {
	case after.Gone:
		return fmt.Sprintf("%s: %s was replaced (it was at %s); take a snapshot to see where it is now", how, name, before.String())
	case after.Where == before.Where && after.Index == before.Index && after.Of == before.Of:
		return fmt.Sprintf("%s: nothing moved, %s stays at %s", how, name, before)
	}
	return fmt.Sprintf("%s: moved %s from %s to %s", how, name, before, &after)
}
