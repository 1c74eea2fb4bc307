// Package pagemodel is the page model as a model reads it: the snapshot (a
// page as numbered element lines and context lines under a header, frames
// and shadow roots in document order, fitted to a token budget, continued
// from a line, or the difference since the last one: Snapshot; with where
// the elements it shows are in the viewport: SnapshotBoxes), and the model's
// lines for features that search or picture them (Lines, Latest).
// It walks each frame in slices with the page running between them, splices
// the frames' lines in place and marks the elements that take drops on a
// page with something to drag.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/door.go: Door.Run, Slot;
// doormodel.go: a frame's isolated world, the frame an <iframe> shows, the
// frame of a ref; World.HandOutRefs records the refs it hands out, which the
// core resolves), and the pure cdpclient/snapshot that fits and diffs its
// lines; never cdpclient's internals, and cdpclient never imports it. The
// page model's script is the core's (cdpclient/js: snapshot.js), installed
// in cdpmcp's world with the refs it keeps.
package pagemodel
