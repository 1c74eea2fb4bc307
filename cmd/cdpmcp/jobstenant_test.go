package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `cdpmcp jobs --tenant` refuses a tenant no token names (a typo would make
// a job no MCP client can reach): checked against the serve's tokens file
// when given, else against the tenants with jobs in the store; nothing is
// queued, and the error says what to do.
func TestJobsRefuseAnUnknownTenant(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	tokens := filepath.Join(tmp, "tokens")
	if err := os.WriteFile(tokens, []byte("alice 0123456789abcdef0123456789abcdef\nbob fedcba9876543210fedcba9876543210\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	job := `{"correlationId":"t-1","url":"` + site.URL("/") + `","task":{"type":"navigate"}}`
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--tenant", "alcie"}, []string{`--tenant "alcie": the store holds no job of this tenant`, "hint: check the spelling", "--auth-tokens-file"}},
		{[]string{"--tenant", "alcie", "--auth-tokens-file", tokens}, []string{`--tenant "alcie": no token of ` + tokens + ` names this tenant (it names alice, bob)`, "hint: give the NAME"}},
		{[]string{"--tenant", "Alice", "--auth-tokens-file", tokens}, []string{`(did you mean "alice"?)`}},
	} {
		r := runCLI(t, tmp, append([]string{"jobs", "submit", "--data-dir", data}, append(c.args, job)...)...)
		if r.code != 2 {
			t.Errorf("jobs submit %s: exit %d, want 2 (refused)\nstdout: %s\nstderr: %s", strings.Join(c.args, " "), r.code, r.stdout, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("jobs submit %s: stderr does not say %q:\n%s", strings.Join(c.args, " "), w, r.stderr)
			}
		}
	}
	if r := runCLI(t, tmp, "jobs", "--data-dir", data, "--json"); strings.Contains(r.stdout, "alcie") || strings.Contains(r.stdout, "Alice") {
		t.Errorf("a refused tenant's job was queued:\n%s", r.stdout)
	}
	// A name the tokens give is taken; then, the store holding its job, it
	// is taken without the file too.
	r := runCLI(t, tmp, "jobs", "submit", "--data-dir", data, "--tenant", "alice", "--auth-tokens-file", tokens, job)
	if r.code != 0 {
		t.Fatalf("jobs submit --tenant alice with the tokens file: exit %d: %s", r.code, r.stderr)
	}
	id := jsonField(t, r.stdout, "jobId")
	if r := runCLI(t, tmp, "jobs", "status", "--data-dir", data, "--tenant", "alice", id); r.code != 6 {
		t.Errorf("jobs status --tenant alice (a tenant with jobs here): exit %d, want 6 (queued): %s", r.code, r.stderr)
	}
	if r := runCLI(t, tmp, "jobs", "status", "--data-dir", data, "--tenant", "alcie", id); r.code != 2 || !strings.Contains(r.stderr, `--tenant "alcie"`) {
		t.Errorf("jobs status --tenant alcie: exit %d, want 2 naming the tenant: %s", r.code, r.stderr)
	}
}
