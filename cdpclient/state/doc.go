// Package state is what a browser session is signed in as and what a tab
// pretends to be: cookies (Cookies, SetCookies, DeleteCookies), web storage
// (WebStorage), storage-state files in Playwright's format (Save, Load,
// ReadFile, WriteFile, Loader for every new context) and emulation (Emulate:
// device, media, locale, time zone, position, network, CPU).
//
// It is a feature on the core: it imports cdpclient's exported API and the
// doors cdpclient keeps for features (cdpclient/door.go, doorhooks.go:
// Page.Door, BrowserContext.Door), and cdpclient's leaf package jsfunc;
// cdpclient never imports it.
package state
