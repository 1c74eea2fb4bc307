package actions

// All is the catalogue, in the order clients see it.
func All() []*Action {
	return []*Action{
		Navigate, Reload, GoBack, GoForward,
		Snapshot,
		Click, Type, Fill, PressKey, Hover, SelectOption, Scroll, UploadFile, HandleDialog,
		WaitFor, WaitForTimeout,
		Evaluate, GetTitle, GetURL, GetContent, Screenshot,
		NewPage, ClosePage, ListPages, SwitchPage,
		Console, Network,
		CDP,
		AuditAccessibility, AuditPerformance, AuditSecurity, AuditLinks, AuditReport,
	}
}

// ByName returns the action with the given name, or nil.
func ByName(name string) *Action {
	for _, a := range All() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Names lists every action name.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name)
	}
	return out
}
