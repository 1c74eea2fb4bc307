package cdpclient

// TargetID is the browser's id for the page's target.
func (p *Page) TargetID() string { return string(p.targetID) }

// OpenerID is the target id of the page that opened this one (a popup's
// opener), or "".
func (p *Page) OpenerID() string {
	if id := p.hist.opener(); id != nil {
		return string(*id)
	}
	return ""
}

// PID is the process id of a browser this process launched (the leader of its
// process group), or 0 for an attached browser.
func (b *Browser) PID() int {
	if b.proc == nil {
		return 0
	}
	return b.proc.PID()
}

// ID is the browser's id for an isolated context, "" for the default one.
func (bc *BrowserContext) ID() string { return bc.id }
