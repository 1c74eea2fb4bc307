package feedback

// Changes is what the page model saw change in one frame during an action
// (the core's js/watch.js answers it as JSON), or in all the frames it
// watched, added up (Add).
type Changes struct {
	Text    [][2]string `json:"text"`
	Attrs   [][3]any    `json:"attrs"`
	Removed []string    `json:"removed"`
	Added   [][2]string `json:"added"`
	Flash   []string    `json:"flash"`
	Invalid [][3]string `json:"invalid"` // ref, element, validation message
	More    int         `json:"more"`
	Last    int         `json:"last"`
	// Matches is how many elements the selector that named the target
	// matched, when more than one (the first that shows was acted on).
	Matches int `json:"matches,omitempty"`
	// Before is what changed on the page on its own between the last
	// answer and the action (js/between.js): text, added elements and
	// flashes only, clocks left out.
	Before *Changes `json:"before,omitempty"`
}

// Add adds one frame's changes to c (all but Last: the highest ref a frame
// handed out is that frame's).
func (c *Changes) Add(f Changes) {
	c.Text = append(c.Text, f.Text...)
	c.Attrs = append(c.Attrs, f.Attrs...)
	c.Removed = append(c.Removed, f.Removed...)
	c.Added = append(c.Added, f.Added...)
	c.Flash = append(c.Flash, f.Flash...)
	c.Invalid = append(c.Invalid, f.Invalid...)
	c.More += f.More
	c.Matches = max(c.Matches, f.Matches)
	if f.Before != nil {
		if c.Before == nil {
			c.Before = &Changes{}
		}
		c.Before.Add(*f.Before)
	}
}

// Delta is the changes as an answer's delta says them.
func (c Changes) Delta() *Delta {
	d := &Delta{Text: c.Text, Removed: c.Removed, Added: c.Added, More: c.More, Flash: c.Flash}
	for _, a := range c.Attrs {
		d.Attrs = append(d.Attrs, [3]any{a[0], a[1], a[2]})
	}
	return d
}
