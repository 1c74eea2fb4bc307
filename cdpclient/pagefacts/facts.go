// Package pagefacts reads what a page states about itself, without running
// its code: the values of selected elements, JSON-LD, microdata, tables,
// label/value pairs, meta tags and the state of a sign-in form (Read), for
// the jobs that extract data and sign in.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (Page.Door: Do, World), and cdpclient's
// leaf package jsfunc; cdpclient never imports it.
package pagefacts

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/mafredri/cdp"
)

// Query asks the page for the values of the elements matching Selector:
// their text, or attribute Attr. With Fields, each match becomes an object of
// the fields' values, each looked up inside the match.
type Query struct {
	Key      string  `json:"key"`
	Selector string  `json:"selector"`
	Attr     string  `json:"attr,omitempty"`
	Fields   []Query `json:"fields,omitempty"`
}

// Facts is what a page states about itself, read without running page
// code: see js/facts.js.
type Facts struct {
	URL       string            `json:"url"`
	Title     string            `json:"title"`
	Meta      map[string]string `json:"meta"`
	JSONLD    []json.RawMessage `json:"jsonld"`
	Microdata []MicrodataItem   `json:"microdata"`
	Tables    []Table           `json:"tables"`
	Pairs     []Pair            `json:"pairs"`
	Selected  map[string][]any  `json:"selected"`
	Errors    []string          `json:"errors"`
	Login     *Login            `json:"login,omitempty"`
}

// MicrodataItem is one top-level itemscope with its properties; a value is a
// string or a nested item (as a map).
type MicrodataItem struct {
	Type  []string         `json:"type"`
	Props map[string][]any `json:"props"`
}

// Table is one <table>: its caption, the heading before it, its header
// cells and its rows' cell texts.
type Table struct {
	Caption string     `json:"caption"`
	Heading string     `json:"heading"`
	Headers []string   `json:"headers"`
	Rows    [][]string `json:"rows"`
}

// Pair is a label and its value, from a <dl> ("dl"), a two-column table
// row ("table") or a "Label: value" line ("text").
type Pair struct {
	Label string `json:"label"`
	Value string `json:"value"`
	From  string `json:"from"`
}

// Login describe the sign-in form on a page, if any.
type Login struct {
	Password bool   `json:"password"` // a visible password field
	User     string `json:"user"`     // a selector for the user name field, if found
	Captcha  bool   `json:"captcha"`  // a visible CAPTCHA widget
	Form     bool   `json:"form"`     // the password field is in a <form>
	// OTP: a visible field for a one-time code (two-step verification).
	OTP bool `json:"otp"`
	// Error is the message the page shows about the sign-in while it asks
	// for a password (a site's "wrong password"): a visible alert or live
	// region, else an element named as an error; empty when there is none.
	Error string `json:"error,omitempty"`
}

//go:embed js/*.js
var jsFiles embed.FS

var pageFactsJS = jsfunc.Load(jsFiles, "js").With("pageFacts")

// Options say which facts to read besides the queries' values.
type Options struct {
	// Structure reads JSON-LD, microdata, tables, label/value pairs and meta
	// tags (the costly part on a big page).
	Structure bool
	// Login reads the state of a sign-in form.
	Login bool
}

// Read reads the values queries ask for and the facts opts name, in
// cdpmcp's isolated world (page scripts neither run nor see it).
func Read(ctx context.Context, p *cdpclient.Page, queries []Query, opts Options) (*Facts, error) {
	if queries == nil {
		queries = []Query{}
	}
	args, err := json.Marshal([]any{queries, opts.Login, opts.Structure})
	if err != nil {
		return nil, err
	}
	var facts Facts
	d := p.Door()
	_, err = d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *cdpclient.World) error {
			r, err := w.Eval(ctx, "("+pageFactsJS+")(..."+string(args)+")", true)
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
