package cdpclient

import "github.com/cdpmcp/cdpmcp/cdpclient/pagelog"

// ConsoleEntries returns the page's recent console messages, oldest first.
func (p *Page) ConsoleEntries() []pagelog.ConsoleEntry { return p.logs.Console(0) }

// NetworkEntries returns the page's recent requests, oldest first.
func (p *Page) NetworkEntries() []pagelog.NetworkEntry { return p.logs.Network(0) }
