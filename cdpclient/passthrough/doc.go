// Package passthrough is the cdp tool: a raw DevTools protocol call sent to
// the caller's page or, on its behalf, to the browser (Page, Browser),
// confined in every mode. cdppolicy says which methods pass; for those that
// can name other sessions' targets or contexts, or load a URL, the calls here
// check and rewrite them so that a caller sees and touches only its own
// browser context and the origin rules hold: a target of another context is
// refused as one that does not exist, a new tab opens in the caller's
// context, and lists of targets and contexts keep only the caller's.
//
// It is a feature on the core: it sends through the core's unconfined
// Page.Raw and Browser.Raw (cdpclient's own calls, features' and jobs') and
// asks the core's door which targets a context owns (cdpclient/doorread.go:
// ContextDoor.Owns; BrowserContext.ID; a target it names is asked of the
// browser, Target.getTargetInfo); cdpclient never imports it.
package passthrough
