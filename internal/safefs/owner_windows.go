//go:build windows

package safefs

import "io/fs"

// PermissionBits says whether a file's permission bits say who may read and
// change it. On Windows they do not (Go shows 0666 or 0444): access lists do.
const PermissionBits = false

// Owned reports nil: Windows has no owner id in a file's mode bits to compare,
// and a user's profile folders, where cdpmcp keeps its data, are private to
// that user by their access lists.
func Owned(fs.FileInfo) error { return nil }

// noFollow is 0: Windows opens a symbolic link's target, and creating one
// needs a privilege ordinary users lack.
const noFollow = 0
