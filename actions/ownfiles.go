package actions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/network"
)

// A tenant's files are its own: with Env.Home set (a named tenant over
// HTTP), the files a call names (storageState's path, uploadFile's paths)
// are looked for in the tenant's folder (a relative path is taken from
// there) and, for uploads, in the download folder of its session; any other
// path, another tenant's folder included, is answered as not the caller's
// by the path alone, whether a file is there or not, so nothing is learnt of
// it. The local user (Home empty) names any file of the machine.

// notOwn is the error of a path outside the caller's folders. It depends on
// the path alone, never on what is there.
func notOwn(what, path, hint string) error {
	return argErr(hint, "%s %q: not in your folder: a tenant names only its own files", what, path)
}

// noSuchFile is the error of a name in the caller's folders with no file.
func noSuchFile(what, path, hint string) error {
	return argErr(hint, "%s %q: no such file in your folder", what, path)
}

// homeHint tells the caller what to give and where its files are: does is
// what the call does with them, e.g. "the PDF is saved in".
func (e *Env) homeHint(example, does string) string {
	return fmt.Sprintf("give a name, e.g. %q: %s your folder on the server, %s", example, does, e.Home)
}

// ownPath resolves path as the caller may name a file; more are folders the
// caller's files are in besides Home. ok is false when the caller has no
// file there.
func (e *Env) ownPath(path string, more ...string) (string, bool) {
	if e.Home == "" {
		return path, true
	}
	if !filepath.IsAbs(path) {
		if !filepath.IsLocal(path) {
			return "", false
		}
		return filepath.Join(e.Home, path), true
	}
	clean := filepath.Clean(path)
	for _, dir := range append([]string{e.Home}, more...) {
		if dir != "" && within(clean, dir) {
			return clean, true
		}
	}
	return "", false
}

// within reports whether path lies in dir, also once links are followed.
func within(path, dir string) bool {
	inside := func(p, d string) bool {
		rel, err := filepath.Rel(d, p)
		return err == nil && filepath.IsLocal(rel)
	}
	if !inside(path, filepath.Clean(dir)) {
		return false
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true // nothing there yet: nothing to follow
	}
	realPath, err := filepath.EvalSymlinks(path)
	if err != nil {
		realPath, err = filepath.EvalSymlinks(filepath.Dir(path))
		if err != nil {
			return true
		}
		realPath = filepath.Join(realPath, filepath.Base(path))
	}
	return inside(realPath, realDir)
}

// homeReady makes the caller's folder, private, before a file is written in
// it.
func (e *Env) homeReady() error {
	if e.Home == "" {
		return nil
	}
	return e.artifactsReady()
}

// uploadPaths are the caller's files paths name (its folder, its session's
// downloads), or a not-found error naming the first that is not one.
func (e *Env) uploadPaths(ctx context.Context, paths []string) ([]string, error) {
	if e.Home == "" {
		return paths, nil
	}
	bc, err := e.Context(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(paths))
	hint := e.homeHint("form.pdf", "files are uploaded from") + ", or the path of a file this session downloaded (its download's answer gives it)"
	for i, p := range paths {
		own, ok := e.ownPath(p, network.DownloadDir(bc))
		if !ok {
			return nil, notOwn("upload", p, hint)
		}
		if _, err := os.Stat(own); err != nil {
			return nil, noSuchFile("upload", p, hint)
		}
		out[i] = own
	}
	return out, nil
}

// shownPath is how a path of the caller's is told back: a name in its
// folder, as it gave it.
func (e *Env) shownPath(path string) string {
	if e.Home != "" {
		if rel, err := filepath.Rel(e.Home, path); err == nil && filepath.IsLocal(rel) {
			return strings.TrimPrefix(rel, "./")
		}
	}
	return path
}
