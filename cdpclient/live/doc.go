// Package live is a tab as a person sees and drives it from elsewhere (the
// live view of a job, the human handoff, a recording's video): its
// screencast, shared by every watcher (Screencast), a person's input passed
// on as the browser's own (DispatchMouse, DispatchKey, InsertText,
// DispatchTouch, SetViewport, ResetViewport), and the masking of secret
// fields in its frames (SecretBoxes, MaskSecrets).
//
// It is a feature on the core: it imports cdpclient's exported API (Page.Tap
// for the frames) and the door cdpclient keeps for features
// (cdpclient/door.go, doorlive.go: none of it takes the action lock, so it
// runs beside the model's actions), and cdpclient's leaf package jsfunc;
// cdpclient never imports it.
package live
