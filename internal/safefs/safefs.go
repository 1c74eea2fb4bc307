package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Dir makes sure path is a private folder of this user: it creates it (and
// missing parents) with mode 0700, or checks the one that exists. An existing
// folder is refused when it is a symbolic link, is not a folder, belongs to
// another user or can be written by others: someone else could plant files
// or links in it. what names it in the error ("the artifacts folder").
func Dir(path, what string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("%s %s: %w", what, path, err)
		}
		if err := os.Mkdir(path, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s %s: %w", what, path, err)
		}
		// Made now or by a racing creator: check what is there.
		if fi, err = os.Lstat(path); err != nil {
			return fmt.Errorf("%s %s: %w", what, path, err)
		}
	} else if err != nil {
		return fmt.Errorf("%s %s: %w", what, path, err)
	}
	if err := checkDir(fi); err != nil {
		return &UnsafeError{Path: path, What: what, Why: err.Error()}
	}
	return nil
}

// NewDir creates path as a new private folder; it fails when anything is
// there already.
func NewDir(path, what string) error {
	if err := os.Mkdir(path, 0o700); err != nil {
		return fmt.Errorf("%s %s: %w", what, path, err)
	}
	return nil
}

func checkDir(fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return errors.New("it is a symbolic link")
	case !fi.IsDir():
		return errors.New("it is not a folder")
	}
	if err := Owned(fi); err != nil {
		return err
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("other users can write in it (mode %04o)", fi.Mode().Perm())
	}
	return nil
}

// UnsafeError says why a folder that exists cannot be used.
type UnsafeError struct {
	Path, What, Why string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s %s cannot be used: %s; remove it, or choose another folder", e.What, e.Path, e.Why)
}

// Create creates a new file for writing, readable by this user only. It
// never follows a symbolic link and fails when anything is at path already:
// a file it did not create is never overwritten.
func Create(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
}

// WriteFile writes data to a new file at path (see Create). The file holds
// all of data or does not exist: a write cut short (a full disk) removes it.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// OpenUserFile opens a file a user named (a PDF's path, a trace, a saved
// state) for writing with perm, creating it, appending or truncating as flag
// says. A symbolic link, something that is not a regular file, or a file of
// another user is refused: a planted link would make cdpmcp write over a file
// of its user's.
func OpenUserFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	// Truncated only once it is known to be the user's own.
	f, err := os.OpenFile(path, flag&^os.O_TRUNC|os.O_CREATE|noFollow, perm)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link; give the path of the file itself", path)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err == nil {
		if oerr := Owned(fi); oerr != nil {
			err = fmt.Errorf("%s: %w", path, oerr)
		}
	}
	if err == nil && flag&os.O_TRUNC != 0 {
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WriteUserFile replaces the content of a file a user named (see
// OpenUserFile).
func WriteUserFile(path string, data []byte, perm fs.FileMode) error {
	f, err := OpenUserFile(path, os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// NoFollow is the open flag that refuses a symbolic link where the system has
// one (0 elsewhere).
const NoFollow = noFollow
