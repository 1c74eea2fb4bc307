package learned

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

// maxFileBytes bounds a script file read.
const maxFileBytes = 4 << 20

// Encode renders s as its file's content: indented JSON, passed through
// redact (the session's secrets, however encoded, never reach the file; a
// param's value is no secret's unless it is one).
func (s *Script) Encode(redact func(string) string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	if redact == nil {
		return b.Bytes(), nil
	}
	return []byte(redact(b.String())), nil
}

// Write writes the recorder's script into dir as script.json (a new file,
// readable by its owner only) and returns its path and steps; no step
// learned writes nothing and returns "".
func (r *Recorder) Write(dir string) (path string, steps int, err error) {
	s := r.Script()
	if s == nil {
		return "", 0, nil
	}
	if err := s.Check(); err != nil {
		return "", 0, fmt.Errorf("the learned script does not check (%w); nothing written", err)
	}
	return s.WriteNew(filepath.Join(dir, FileName), r.Redact)
}

// WriteNew writes s to a new file at path (see safefs.WriteFile).
func (s *Script) WriteNew(path string, redact func(string) string) (string, int, error) {
	b, err := s.Encode(redact)
	if err != nil {
		return "", 0, err
	}
	if err := safefs.WriteFile(path, b); err != nil {
		return "", 0, fmt.Errorf("write the learned script: %w", err)
	}
	return path, len(s.Steps), nil
}

// Read reads and checks the script file at path.
func Read(path string) (*Script, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d MB: not a learned script", path, maxFileBytes>>20)
	}
	s, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Start is the address the script starts from: its first navigate's.
func (s *Script) Start() string {
	for _, st := range s.Steps {
		if st.Action == Navigate {
			return st.URL
		}
	}
	return ""
}

// Rebase moves the script to another copy of its site: every address under
// the start's folder (scheme, host and the start's path up to its last /)
// moves under to's, and the first navigate goes to to itself. A script
// learned on https://staging.example.com/app/login runs on
// https://example.com/app/login as it is.
func (s *Script) Rebase(to string) error {
	from := s.Start()
	if from == "" || from == to {
		return nil
	}
	oldBase, err := base(from)
	if err != nil {
		return err
	}
	newBase, err := base(to)
	if err != nil {
		return err
	}
	move := func(u string) string {
		if rest, ok := strings.CutPrefix(u, oldBase); ok {
			return newBase + rest
		}
		return u
	}
	first := true
	for i := range s.Steps {
		st := &s.Steps[i]
		if st.Action == Navigate && first {
			st.URL, first = to, false
		} else if st.URL != "" {
			st.URL = move(st.URL)
		}
		if st.Expect != nil && st.Expect.URL != "" {
			st.Expect.URL = move(st.Expect.URL)
		}
	}
	return nil
}

// base is an address's folder: scheme, host and path up to its last /.
func base(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not an absolute URL", raw)
	}
	dir := path.Dir(u.Path)
	if strings.HasSuffix(u.Path, "/") {
		dir = strings.TrimSuffix(u.Path, "/")
	}
	if dir == "." || dir == "/" {
		dir = ""
	}
	return u.Scheme + "://" + u.Host + dir + "/", nil
}

// SamePage reports whether address got is the page want names: the same
// path (and host, when want has one); the query and fragment may differ.
func SamePage(want, got string) bool {
	w, err1 := url.Parse(want)
	g, err2 := url.Parse(got)
	if err1 != nil || err2 != nil {
		return want == got
	}
	if w.Host != "" && !strings.EqualFold(w.Host, g.Host) {
		return false
	}
	return strings.TrimSuffix(w.Path, "/") == strings.TrimSuffix(g.Path, "/")
}
