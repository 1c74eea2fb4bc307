package actions

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
	"weak"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/audit"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

// DefaultArtifactsDir is where audits write their files when Env.Artifacts is
// empty: cdpmcp-artifacts in the OS temp directory.
func DefaultArtifactsDir() string { return filepath.Join(os.TempDir(), "cdpmcp-artifacts") }

// writeArtifact saves data as a new file named after kind in the artifacts
// directory and returns its path, secrets redacted.
func (e *Env) writeArtifact(kind, ext string, data []byte) (string, error) {
	if err := e.artifactsReady(); err != nil {
		return "", err
	}
	path := e.newArtifact(kind) + "." + ext
	if e.Secrets != nil {
		data = e.Secrets.RedactBytes(data)
	}
	if err := safefs.WriteFile(path, data); err != nil { // a new file, removed when cut short (a full disk)
		return "", fmt.Errorf("write artifact: %w", err)
	}
	return path, nil
}

// artifactsReady makes the artifacts directory, private (0700), or checks
// the one there: another user's, a link or one others can write in is
// refused (a file planted in it could make cdpmcp write over a file of its
// user's).
func (e *Env) artifactsReady() error {
	err := safefs.Dir(e.artifactsDir(), "the artifacts folder")
	var ue *safefs.UnsafeError
	if errors.As(err, &ue) {
		return argErr("remove "+ue.Path+", or start cdpmcp with --artifacts-dir set to a folder of your own", "%v", err)
	}
	return err
}

// artifactsDir is where artifacts go: Env.Artifacts or the default.
func (e *Env) artifactsDir() string {
	if e.Artifacts == "" {
		return DefaultArtifactsDir()
	}
	return e.Artifacts
}

// newArtifact names a new artifact of kind in the artifacts directory, unique
// by time and a random suffix: kind-20261124-092906-b8889e.
func (e *Env) newArtifact(kind string) string {
	var r [3]byte
	_, _ = rand.Read(r[:])
	return filepath.Join(e.artifactsDir(), fmt.Sprintf("%s-%s-%s", kind, time.Now().Format("20060102-150405"), hex.EncodeToString(r[:])))
}

// writeJSON saves v as a JSON artifact.
func (e *Env) writeJSON(kind string, v any) (string, error) {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", kind, err)
	}
	return e.writeArtifact(kind, "json", b)
}

// Progress receives an action's progress: done of total steps (total 0 when
// unknown) and what it is doing.
type Progress func(done, total int, msg string)

type progressKey struct{}

// WithProgress returns a context whose actions report their progress to fn
// (the MCP layer turns it into progress notifications).
func WithProgress(ctx context.Context, fn Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// progressOf returns the context's progress receiver, or one that drops
// everything.
func progressOf(ctx context.Context) Progress {
	if fn, ok := ctx.Value(progressKey{}).(Progress); ok && fn != nil {
		return fn
	}
	return func(int, int, string) {}
}

// auditRecord is one audit run kept for auditReport.
type auditRecord struct {
	Kind     string // accessibility, performance, security, links
	URL      string
	Time     time.Time
	Findings []audit.Finding
	Perf     *audit.PerformanceReport
	Artifact string
}

// Limits of what a session keeps for its report.
const (
	maxAuditRecords  = 50
	maxShotsKept     = 60
	maxFindingsKept  = 2000
	maxFindingsShown = 25
)

// auditLog keeps each browser context's audits (one context per MCP session
// over HTTP, the shared default one over stdio). A context that is gone is
// forgotten: the map holds it weakly.
type auditLog struct {
	mu    sync.Mutex
	byCtx map[weak.Pointer[cdpclient.BrowserContext]][]*auditRecord
}

var audits = &auditLog{byCtx: map[weak.Pointer[cdpclient.BrowserContext]][]*auditRecord{}}

// add records an audit of bc's session, dropping the oldest past the limits
// and the pictures past maxShotsKept.
func (l *auditLog) add(bc *cdpclient.BrowserContext, r *auditRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k := range l.byCtx {
		if k.Value() == nil {
			delete(l.byCtx, k)
		}
	}
	k := weak.Make(bc)
	recs := append(l.byCtx[k], r)
	if len(recs) > maxAuditRecords {
		recs = recs[len(recs)-maxAuditRecords:]
	}
	shots, findings := 0, 0
	for i := len(recs) - 1; i >= 0; i-- {
		for j := range recs[i].Findings {
			if recs[i].Findings[j].Shot != nil {
				if shots++; shots > maxShotsKept {
					recs[i].Findings[j].Shot = nil
				}
			}
		}
		if findings += len(recs[i].Findings); findings > maxFindingsKept && i < len(recs)-1 {
			recs = recs[i+1:]
			break
		}
	}
	l.byCtx[k] = recs
}

// of returns bc's session's audits, oldest first.
func (l *auditLog) of(bc *cdpclient.BrowserContext) []*auditRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*auditRecord(nil), l.byCtx[weak.Make(bc)]...)
}
