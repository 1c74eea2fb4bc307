package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Folders are made private; existing ones that are links, files, open to
// others' writes or someone else's are refused with the reason; files are
// made anew, never through a link, never over what is there.
func TestFoldersAndFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	victim := filepath.Join(root, "victim")
	if err := os.WriteFile(victim, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	made := filepath.Join(root, "a", "b", "artifacts")
	if err := Dir(made, "the artifacts folder"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(made); fi.Mode().Perm() != 0o700 {
		t.Errorf("made with mode %04o, want 0700", fi.Mode().Perm())
	}
	if err := Dir(made, "the artifacts folder"); err != nil {
		t.Errorf("an existing private folder: %v", err)
	}
	open := filepath.Join(root, "open")
	_ = os.Mkdir(open, 0o777)
	_ = os.Chmod(open, 0o777)
	link := filepath.Join(root, "link")
	_ = os.Symlink(made, link)
	notDir := filepath.Join(root, "file")
	_ = os.WriteFile(notDir, nil, 0o600)
	for path, why := range map[string]string{open: "other users can write in it", link: "symbolic link", notDir: "not a folder"} {
		err := Dir(path, "the artifacts folder")
		var ue *UnsafeError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "the artifacts folder "+path) {
			t.Errorf("Dir(%s) = %v, want %q", path, err, why)
		}
	}
	if os.Geteuid() == 0 {
		foreign := filepath.Join(root, "foreign")
		_ = os.Mkdir(foreign, 0o700)
		_ = os.Chown(foreign, 4242, 4242)
		if err := Dir(foreign, "the data folder"); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
			t.Errorf("a folder of another user: %v", err)
		}
	}

	planted := filepath.Join(made, "network.har")
	if err := os.Symlink(victim, planted); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(planted, []byte("har")); err == nil {
		t.Error("WriteFile wrote through a planted link")
	}
	if err := WriteFile(filepath.Join(made, "trace.jsonl"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(made, "trace.jsonl"), []byte("y")); !errors.Is(err, os.ErrExist) {
		t.Errorf("WriteFile over an existing file: %v", err)
	}
	if err := WriteUserFile(planted, []byte("pdf"), 0o644); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("WriteUserFile through a link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Errorf("the linked file became %q", b)
	}
	own := filepath.Join(root, "state.json")
	for _, content := range []string{"first, longer", "second"} {
		if err := WriteUserFile(own, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(own); string(b) != "second" {
		t.Errorf("a user's own file rewritten: %q", b)
	}
	if _, err := OpenUserFile(root, os.O_WRONLY, 0o600); err == nil || errors.Is(err, syscall.ELOOP) {
		t.Errorf("OpenUserFile on a folder: %v", err)
	}
}
