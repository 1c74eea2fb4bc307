package jobs_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/pgtest"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// Someone with a copy of the store (a replica, a backup, a read-only role)
// runs a dictionary of passwords against its rows: against every value in
// the clear, hex or base64, and, for every job, against a SHA-256 and an
// HMAC-SHA256 (keyed by every 32-byte value kept beside the rows) of its
// request with each guess as the password — the keys older cdpmcp stored.
// On rows written the old way the dictionary finds the password (the check
// works); on the rows cdpmcp writes, and on the old rows once a server has
// opened the store again, it finds nothing.
func TestNoPasswordCheckableAtRest(t *testing.T) {
	t.Parallel()
	onBothStores(t, testNoPasswordCheckableAtRest)
}

func testNoPasswordCheckableAtRest(t *testing.T) {
	t.Parallel()
	path := t.TempDir()
	q := openQueue(t, path, jobs.Config{MaxTabs: 1})
	alice := tenant.With(testCtx(t), "alice")
	reqs := []jobs.SubmitRequest{
		{CorrelationID: "sign-in-1", URL: site.URL("/jobs/login"), Task: jobs.Task{Type: jobs.TaskLogin, Username: "ada@example.com", Password: fixtures.LoginPassword}},
		{CorrelationID: "sign-in-2", URL: site.URL("/jobs/login"), Task: jobs.Task{Type: jobs.TaskLogin, Username: "bob@example.com", Password: "sunshine"}},
	}
	var ids []string
	for _, r := range reqs {
		j, _, err := q.Submit(alice, r)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := q.Submit(alice, r); err != nil { // a retry
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	for _, id := range ids {
		testbound.UntilNil(t, "job "+id+" to end", func() error {
			j, err := q.Status(alice, id)
			if err == nil && !j.State.Terminal() {
				err = fmt.Errorf("still %s", j.State)
			}
			return err
		})
	}
	dict := append(passwordDictionary(), fixtures.LoginPassword, "sunshine")
	if found := crack(t, q, reqs, dict); len(found) > 0 {
		t.Errorf("the rows cdpmcp writes let a dictionary check passwords: found %q", found)
	}

	// The same rows as an older cdpmcp kept them: the dictionary finds both
	// passwords. A server that opens the store rewrites them, and then it
	// finds nothing, and the old keys are nowhere in what is kept.
	q.close()
	key := bytes.Repeat([]byte{7}, 32)
	legacy := map[string]string{}
	for i, r := range reqs {
		legacy[ids[i]] = legacyKey(key, "alice", r)
	}
	makeLegacy(t, q, key, legacy)
	if found := crack(t, q, reqs, dict); len(found) != 2 {
		t.Fatalf("the dictionary against an older cdpmcp's rows found %q, want both passwords: the check does not work", found)
	}
	q = openQueue(t, path, jobs.Config{MaxTabs: 1})
	if found := crack(t, q, reqs, dict); len(found) > 0 {
		t.Errorf("after the upgrade, the dictionary still finds %q", found)
	}
	rest, _ := atRest(t, q)
	for id, k := range legacy {
		if bytes.Contains(rest, []byte(k)) {
			t.Errorf("job %s's old key %s is still kept", id, k)
		}
		j, err := q.Status(alice, id)
		if err != nil || j.Key != jobstore.IdemKey("alice", j.CorrelationID) {
			t.Errorf("job %s after the upgrade: %v %v", id, j, err)
		}
	}
	// A retry of an upgraded job is still that job.
	if j, created, err := q.Submit(alice, reqs[0]); err != nil || created || j.ID != ids[0] {
		t.Errorf("a retry after the upgrade: %v %v %v", j, created, err)
	}
}

// makeLegacy rewrites the stored jobs of q (closed) as an older cdpmcp kept
// them: their idempotency keys the old keyed hashes (keys: job id → key),
// the key beside them (the data dir's file for SQLite, cdpmcp.meta for
// PostgreSQL), the schema's version before the rewrite.
func makeLegacy(t *testing.T, q *testQueue, key []byte, keys map[string]string) {
	t.Helper()
	if onPostgres(t) {
		url, _ := databases.Load(q.dir.Path)
		bin, _ := pgtest.Bin()
		script := fmt.Sprintf("INSERT INTO cdpmcp.meta (name, value) VALUES ('key', decode('%x', 'hex')); UPDATE cdpmcp.schema_version SET version = 1;", key)
		for id, k := range keys {
			script += fmt.Sprintf("UPDATE cdpmcp.jobs SET idem_key = '%s' WHERE id = '%s';", k, id)
		}
		if out, err := exec.Command(filepath.Join(bin, "psql"), "-v", "ON_ERROR_STOP=1", "-c", script, url.(string)).CombinedOutput(); err != nil {
			t.Fatalf("psql: %v\n%s", err, out)
		}
		return
	}
	if err := os.WriteFile(filepath.Join(q.dir.Path, "key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+q.dir.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, k := range keys {
		if _, err := db.Exec(`UPDATE jobs SET idem_key = ? WHERE id = ?`, k, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = 0`); err != nil {
		t.Fatal(err)
	}
}

// legacyKey is a submission's idempotency key as cdpmcp before issue 34
// made it: an HMAC-SHA256, keyed by a key kept beside the store, of the
// canonical request with its password.
func legacyKey(key []byte, owner string, r jobs.SubmitRequest) string {
	b, _ := json.Marshal(r)
	var canon any
	_ = json.Unmarshal(b, &canon)
	b, _ = json.Marshal(canon)
	m := hmac.New(sha256.New, key)
	if owner != tenant.Local {
		m.Write([]byte("tenant\x00" + owner + "\x00"))
	}
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

var hexDigest = regexp.MustCompile(`[0-9a-f]{64}`)

// crack runs dict against everything the store of q keeps and returns the
// guesses that check out.
func crack(t *testing.T, q *testQueue, reqs []jobs.SubmitRequest, dict []string) []string {
	t.Helper()
	rest, keys := atRest(t, q)
	digests := map[string]bool{}
	for _, d := range hexDigest.FindAll(rest, -1) {
		digests[string(d)] = true
	}
	hit := func(sum []byte) bool { return digests[hex.EncodeToString(sum)] || bytes.Contains(rest, sum) }
	used := map[string]bool{}
	for _, r := range reqs {
		used[r.Task.Password] = true
	}
	var found []string
	for _, guess := range dict {
		// In the clear only the passwords used count: a common word such as
		// "login" is in any row.
		clear := used[guess] && (bytes.Contains(rest, []byte(guess)) || bytes.Contains(rest, []byte(hex.EncodeToString([]byte(guess)))) ||
			bytes.Contains(rest, []byte(base64.StdEncoding.EncodeToString([]byte(guess)))))
		if sum := sha256.Sum256([]byte(guess)); clear || hit(sum[:]) {
			found = append(found, guess)
			continue
		}
	requests:
		for _, r := range reqs {
			r.Task.Password = guess
			b, _ := json.Marshal(r)
			var canon any
			_ = json.Unmarshal(b, &canon)
			b, _ = json.Marshal(canon)
			for _, prefix := range []string{"", "tenant\x00alice\x00"} {
				sum := sha256.Sum256(append([]byte(prefix), b...))
				if hit(sum[:]) {
					found = append(found, guess)
					break requests
				}
				for _, k := range keys {
					m := hmac.New(sha256.New, k)
					m.Write([]byte(prefix))
					m.Write(b)
					if hit(m.Sum(nil)) {
						found = append(found, guess)
						break requests
					}
				}
			}
		}
	}
	return found
}

// atRest is everything the store of q keeps (SQLite: the data dir's files,
// the database with its write-ahead log; PostgreSQL: every row, as pg_dump
// writes them) and the 32-byte values among it that could key a hash (files
// of 32 bytes; the meta table's values).
func atRest(t *testing.T, q *testQueue) (rest []byte, keys [][]byte) {
	t.Helper()
	if onPostgres(t) {
		rest = storedBytes(t, q)
		url, _ := databases.Load(q.dir.Path)
		bin, _ := pgtest.Bin()
		out, err := exec.Command(filepath.Join(bin, "psql"), "-At", "-c", "SELECT encode(value, 'hex') FROM cdpmcp.meta", url.(string)).Output()
		if err != nil {
			t.Fatalf("psql: %v", err)
		}
		for _, line := range strings.Fields(string(out)) {
			if k, err := hex.DecodeString(line); err == nil && len(k) == 32 {
				keys = append(keys, k)
			}
		}
		return rest, keys
	}
	entries, err := os.ReadDir(q.dir.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == "reserve" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(q.dir.Path, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		rest = append(rest, b...)
		if len(b) == 32 {
			keys = append(keys, b)
		}
	}
	db, err := sql.Open("sqlite", "file:"+q.dir.DBPath()+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT value FROM meta`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var v []byte
		if err := rows.Scan(&v); err == nil && len(v) == 32 {
			keys = append(keys, v)
		}
	}
	return rest, keys
}

// passwordDictionary is a short list of the passwords people use most.
func passwordDictionary() []string {
	return strings.Fields(`123456 password 123456789 12345678 12345 qwerty abc123 football 1234567 monkey
		111111 letmein 1234 1234567890 dragon baseball iloveyou trustno1 princess adobe123 123123 welcome
		login admin qwerty123 solo 1q2w3e4r master 666666 photoshop 1qaz2wsx qwertyuiop ashley mustang 121212
		starwars 654321 bailey access flower 555555 passw0rd shadow lovely 7777777 michael !@#$%^&* jesus
		password1 superman hello charlie 888888 696969 hottie freedom aa123456 qazwsx ninja azerty loveme
		whatever donald batman zaq1zaq1 Football 000000 123qwe hunter2 correcthorse Tr0ub4dor&3 changeme
		secret s3cret letmein1 welcome1 P@ssw0rd summer2024 winter2023 spring autumn`)
}
