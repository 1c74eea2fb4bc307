package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// FactQuery asks the page for the values of the elements matching Selector:
// their text, or attribute Attr. With Fields, each match becomes an object of
// the fields' values, each looked up inside the match.
type FactQuery struct {
	Key      string      `json:"key"`
	Selector string      `json:"selector"`
	Attr     string      `json:"attr,omitempty"`
	Fields   []FactQuery `json:"fields,omitempty"`
}

// PageFacts is what a page states about itself, read without running page
// code: see js/extract.js.
type PageFacts struct {
	URL       string            `json:"url"`
	Title     string            `json:"title"`
	Meta      map[string]string `json:"meta"`
	JSONLD    []json.RawMessage `json:"jsonld"`
	Microdata []MicrodataItem   `json:"microdata"`
	Tables    []FactTable       `json:"tables"`
	Pairs     []FactPair        `json:"pairs"`
	Selected  map[string][]any  `json:"selected"`
	Errors    []string          `json:"errors"`
	Login     *LoginFacts       `json:"login,omitempty"`
}

// MicrodataItem is one top-level itemscope with its properties; a value is a
// string or a nested item (as a map).
type MicrodataItem struct {
	Type  []string         `json:"type"`
	Props map[string][]any `json:"props"`
}

// FactTable is one <table>: its caption, the heading before it, its header
// cells and its rows' cell texts.
type FactTable struct {
	Caption string     `json:"caption"`
	Heading string     `json:"heading"`
	Headers []string   `json:"headers"`
	Rows    [][]string `json:"rows"`
}

// FactPair is a label and its value, from a <dl> ("dl"), a two-column table
// row ("table") or a "Label: value" line ("text").
type FactPair struct {
	Label string `json:"label"`
	Value string `json:"value"`
	From  string `json:"from"`
}

// LoginFacts describe the sign-in form on a page, if any.
type LoginFacts struct {
	Password bool   `json:"password"` // a visible password field
	User     string `json:"user"`     // a selector for the user name field, if found
	Captcha  bool   `json:"captcha"`  // a visible CAPTCHA widget
	Form     bool   `json:"form"`     // the password field is in a <form>
}

var pageFactsJS = jsWith("pageFacts")

// FactOptions say which facts to read besides the queries' values.
type FactOptions struct {
	// Structure reads JSON-LD, microdata, tables, label/value pairs and meta
	// tags (the costly part on a big page).
	Structure bool
	// Login reads the state of a sign-in form.
	Login bool
}

// Facts reads the values queries ask for and the facts opts name, in
// cdpmcp's isolated world (page scripts neither run nor see it).
func (p *Page) Facts(ctx context.Context, queries []FactQuery, opts FactOptions) (*PageFacts, error) {
	if queries == nil {
		queries = []FactQuery{}
	}
	args, err := json.Marshal([]any{queries, opts.Login, opts.Structure})
	if err != nil {
		return nil, err
	}
	var facts PageFacts
	err = p.do(ctx, func(ctx context.Context) error {
		p.mu.Lock()
		key := frameKey{frame: p.mainFrame}
		p.mu.Unlock()
		return p.withWorld(ctx, key, func(w *worldIn) error {
			r, err := w.eval(ctx, "("+pageFactsJS+")(..."+string(args)+")", true)
			if err != nil {
				return err
			}
			if err := json.Unmarshal(r.Value, &facts); err != nil {
				return fmt.Errorf("decode page facts: %w", err)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return &facts, nil
}
