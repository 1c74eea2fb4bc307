package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs/extract"
)

// ExtractRequest is browser.snapshot.extract_structured's input.
type ExtractRequest struct {
	CorrelationID string          `json:"correlationId"`
	URL           string          `json:"url"`
	Profile       string          `json:"profile,omitempty"`
	Schema        json.RawMessage `json:"schema"`
}

// Extracted is what Extract found.
type Extracted struct {
	FinalURL   string
	Result     *extract.Result
	Screenshot string // path, when taken
}

// Extract opens url in a tab (in the profile of ctx's tenant, when given) and fills schema with
// what the page states. It takes a tab slot ahead of queued jobs and runs on
// ctx (the caller's deadline). A bad argument is an *InputError.
func (q *Queue) Extract(ctx context.Context, req ExtractRequest) (*Extracted, error) {
	if strings.TrimSpace(req.CorrelationID) == "" {
		return nil, inputErr("pass any string that ties your calls together", "correlationId is empty")
	}
	if err := q.checkURL(req.URL); err != nil {
		return nil, err
	}
	if req.Profile != "" && !profileName.MatchString(req.Profile) {
		return nil, inputErr("use letters, digits, '.', '_' and '-' (at most 64)", "profile %q is not a valid profile name", req.Profile)
	}
	if err := extract.CheckSchema(req.Schema); err != nil {
		return nil, inputErr("give a JSON schema object such as {\"type\":\"object\",\"properties\":{\"price\":{\"type\":\"number\"}}}", "schema: %v", err)
	}
	if q.cfg.SubmitOnly && q.store.Shared() {
		return q.extractOnAWorker(ctx, req)
	}
	if q.door || q.cfg.SubmitOnly {
		return nil, inputErr("call it on a server that runs jobs (without --max-tabs 0)", "this process opens no tabs: it runs no jobs")
	}
	if err := q.takeSlot(ctx); err != nil {
		return nil, errors.New("all tabs stayed busy with jobs until the call's deadline; try again or raise --max-tabs")
	}
	defer q.releaseSlot()
	l, err := q.fleet.context(ctx, tenant.Of(ctx), req.Profile)
	if err != nil {
		return nil, err
	}
	l.bc.UseSecrets(q.secretsOf(tenant.Of(ctx)))
	defer l.done(nil) // after the tab is closed
	page := l.tab
	if page == nil {
		if page, err = l.bc.NewPage(ctx); err != nil {
			return nil, err
		}
	}
	defer closeTab(page) //nolint:errcheck // best effort: the context goes too
	var notes []string
	fb, err := page.Navigate(ctx, req.URL, cdpclient.WaitLoad)
	err = loaded(fb, err)
	if err := readAnyway(ctx, err); err != nil {
		return nil, err
	}
	if err != nil {
		notes = append(notes, stillLoadingNote)
	}
	if err := errorPage(page.URL(), documentStatus(fb)); err != nil {
		return nil, err
	}
	res, err := readStructured(ctx, page, nil, req.Schema, q.cfg.Model)
	if err != nil {
		return nil, err
	}
	res.Notes = append(notes, res.Notes...)
	out := &Extracted{FinalURL: page.URL(), Result: res.Result}
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if png, _, err := capture.Screenshot(sctx, page, capture.ScreenshotOptions{}); err == nil {
		dir := q.artifactDir(tenant.Of(ctx), "extract-"+strings.TrimPrefix(newID(), "job-"))
		if safefs.Dir(dir, "an extraction's artifacts folder") == nil {
			path := filepath.Join(dir, "screenshot.png")
			if safefs.WriteFile(path, png) == nil {
				out.Screenshot = path
			}
		}
	}
	return out, nil
}
