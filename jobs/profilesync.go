package jobs

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// profileSync carries named profiles' state through a shared store: a
// worker that starts a profile's browser first fetches the state the last
// holder saved (when it is newer than its own copy), and saves it back when
// the browser has shut down, releasing the profile. The state is what the
// profile keeps (profileprivacy.go), as a gzipped tar: cookies (encrypted
// with Chromium's fixed key, --password-store=basic, so any worker reads
// them), localStorage, IndexedDB and the other storage sites keep.
type profileSync struct {
	store  Store
	worker string
	lease  time.Duration
}

func (q *Queue) profileSync() *profileSync {
	if !q.cfg.Store.Shared() {
		return nil
	}
	return &profileSync{store: q.store, worker: q.cfg.Worker, lease: q.cfg.Lease}
}

// ErrProfileBusy is returned when a profile another worker holds is needed
// outside a job (extract_structured) and does not come free in time.
var ErrProfileBusy = errors.New("the profile is in use on another worker")

// fetch takes the profile's lease (a claimed job's worker has it already)
// and brings its saved state into dir unless dir has that version.
func (ps *profileSync) fetch(ctx context.Context, name, dir string) error {
	for {
		ok, err := ps.store.TakeProfile(ctx, name, ps.worker, ps.lease)
		if err != nil {
			return err
		}
		if ok {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("profile %q: %w; try again once its job there is done", name, ErrProfileBusy)
		case <-time.After(200 * time.Millisecond):
		}
	}
	version, state, err := ps.store.Profile(ctx, name)
	if err != nil {
		return err
	}
	if version == localVersion(dir) {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if state != nil {
		if err := untar(state, dir); err != nil {
			return fmt.Errorf("profile %q: its saved state is damaged: %w", name, err)
		}
	}
	slog.Info("profile state fetched", "profile", name, "version", version, "bytes", len(state))
	return setLocalVersion(dir, version)
}

// save stores the state in dir as the profile's next version and, with
// release, lets other workers have the profile; the store is given within
// to take it.
func (ps *profileSync) save(name, dir string, release bool, within time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	start := time.Now()
	state, err := tarDir(dir)
	if err != nil {
		slog.Warn("could not pack a profile's state", "profile", name, "err", err)
		state = nil // release it all the same: its last saved state stands
	}
	version, err := ps.store.SaveProfile(ctx, name, ps.worker, state, release)
	if err != nil {
		slog.Warn("could not save a profile's state", "profile", name, "err", err)
		return
	}
	if state != nil {
		_ = setLocalVersion(dir, version)
	}
	slog.Info("profile state saved", "profile", name, "version", version, "bytes", len(state), "released", release,
		"ms", time.Since(start).Milliseconds())
}

// versionFile is beside the profile's directory: Chromium owns the inside.
func versionFile(dir string) string { return dir + ".version" }

func localVersion(dir string) int64 {
	b, err := os.ReadFile(versionFile(dir))
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return v
}

func setLocalVersion(dir string, v int64) error {
	return os.WriteFile(versionFile(dir), []byte(strconv.FormatInt(v, 10)+"\n"), 0o600)
}

// skipped are what a kept part of a profile directory may hold that is not
// the sites' state: caches, crash reports, locks.
var skipped = map[string]bool{
	"Cache": true, "Code Cache": true, "GPUCache": true, "ShaderCache": true, "GrShaderCache": true,
	"GraphiteDawnCache": true, "DawnCache": true, "DawnGraphiteCache": true, "DawnWebGPUCache": true,
	"Crashpad": true, "component_crx_cache": true, "Safe Browsing": true, "BrowserMetrics": true,
	"optimization_guide_model_store": true, "CacheStorage": true, "ScriptCache": true,
	"SingletonLock": true, "SingletonSocket": true, "SingletonCookie": true, "lockfile": true,
}

// tarDir packs what a profile keeps of dir (profileKeeps): its regular files
// and directories there, less what is skipped.
func tarDir(dir string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if gone(err) {
			return nil // a running browser removed it (a journal): not kept
		}
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if all, part := kept(filepath.ToSlash(rel)); !all && !(part && d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil // sockets, links
		}
		var f *os.File
		if !d.IsDir() {
			// Opened first: a running browser may remove a file (a
			// journal) at any time, and one gone is not kept.
			if f, err = os.Open(path); gone(err) {
				return nil
			} else if err != nil {
				return err
			}
			defer f.Close()
		}
		info, err := d.Info()
		if gone(err) {
			return nil
		}
		if err != nil {
			return err
		}
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if err := tw.WriteHeader(hdr); err != nil || d.IsDir() {
			return err
		}
		// A running browser may write on: what the file held at its Stat
		// goes in, zeros after the end of one that shrank since.
		n, err := io.Copy(tw, io.LimitReader(f, hdr.Size))
		if err == nil && n < hdr.Size {
			_, err = tw.Write(make([]byte, hdr.Size-n))
		}
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = gz.Close()
	}
	return buf.Bytes(), err
}

// gone reports whether err says a file is no longer there.
func gone(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// untar unpacks a tarDir archive into dir, refusing any path outside it.
func untar(b []byte, dir string) error {
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(hdr.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("path %q leaves the profile", hdr.Name)
		}
		path := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o700); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}
