package actions

import "sort"

// All is the catalogue, in the order clients see it.
func All() []*Action {
	return []*Action{
		Navigate, Reload, GoBack, GoForward,
		Snapshot,
		Click, Type, Fill, PressKey, Hover, SelectOption, Scroll, UploadFile, HandleDialog, Drag,
		WaitFor, WaitForTimeout,
		Evaluate, GetTitle, GetURL, GetContent, Screenshot,
		NewPage, ClosePage, ListPages, SwitchPage,
		Console, Network,
		CDP,
		Mouse, Downloads, PDF, FillForm, Find,
		Cookies, WebStorage, StorageState, ContextsAction,
		Emulate, Resize,
		RequestDetails, RouteAction, Record,
		AuditAccessibility, AuditPerformance, AuditSecurity, AuditLinks, AuditReport,
		PageTools, CallPageTool, Permissions, Clipboard,
	}
}

// Groups lists the capability groups beyond the core set, sorted.
func Groups() []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range All() {
		if a.Group != "" && !seen[a.Group] {
			seen[a.Group] = true
			out = append(out, a.Group)
		}
	}
	sort.Strings(out)
	return out
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
