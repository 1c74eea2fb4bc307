// Package input is the input actions beyond the core's click and hover:
// typing and key presses (Type, PressKey), fields set in one step (Fill,
// FillForm, SelectOption), drag and drop (Drag), the mouse at viewport
// coordinates (Mouse), scrolling (Scroll) and file uploads (UploadFile).
// Each runs through the core's action-and-observe cycle (Door.Run with
// ModeAct, cdpclient/doorrun.go) and answers with its feedback, as Click does.
//
// It is a feature package on cdpclient: it imports cdpclient's exported API,
// its door, jsfunc and inputnames (the names of buttons and modifiers),
// never cdpclient's internals, and cdpclient never imports it. Its page
// functions are its own (js/*.js).
package input
