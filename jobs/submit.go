package jobs

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs/extract"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// SubmitRequest is a job as a client asks for it (seed 002's submit input).
type SubmitRequest struct {
	CorrelationID  string `json:"correlationId"`
	URL            string `json:"url"`
	Profile        string `json:"profile,omitempty"`
	MaxTabs        int    `json:"maxTabs,omitempty"`
	Priority       *int   `json:"priority,omitempty"`
	HandoffAllowed bool   `json:"handoffAllowed,omitempty"`
	Task           Task   `json:"task"`
}

// DefaultPriority is the priority of a job that names none (0 lowest, 10 highest).
const DefaultPriority = 5

var profileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Submit validates a job and queues it for ctx's tenant. The tenant's
// correlationId is the idempotency key (idempotency.go): the same arguments
// again give the same job, in whatever state it is now, with created false;
// other arguments are a *ConflictError. Another tenant's same request is a
// job of its own. A bad argument is an *InputError and nothing is queued.
func (q *Queue) Submit(ctx context.Context, req SubmitRequest) (job *Job, created bool, err error) {
	if err := q.validate(&req); err != nil {
		return nil, false, err
	}
	owner := tenant.Of(ctx)
	prio := DefaultPriority
	if req.Priority != nil {
		prio = *req.Priority
	}
	maxTabs := req.MaxTabs
	if maxTabs == 0 {
		maxTabs = 1
	}
	secret := req.Task.Password
	if secret != "" && q.cfg.SubmitOnly {
		// A retry is answered here too; only a new job needs the password
		// held by a process that runs it.
		if old, err := q.store.GetByKey(ctx, jobstore.IdemKey(owner, req.CorrelationID)); err == nil {
			return q.retried(old, req, prio, maxTabs)
		}
		who := "this server runs no jobs (--max-tabs 0)"
		if q.door {
			who = "this command runs none"
		}
		return nil, false, inputErr("submit it to a process that runs jobs (a worker or a serve without --max-tabs 0) through MCP, or drop the password and set handoffAllowed so a person signs in",
			"a job with a password runs in the process that took it (the password is never stored) and %s", who)
	}
	// Known from now on to its tenant's registry: no answer of theirs, no
	// log, file or store write shows it (and no other tenant's answer can
	// be used to test a guess of it).
	for _, v := range secretValues(req.Task) {
		q.secretsOf(owner).Add(v)
	}
	j := &Job{
		ID: newID(), Tenant: owner, Key: jobstore.IdemKey(owner, req.CorrelationID), CorrelationID: req.CorrelationID, URL: req.URL, Profile: req.Profile,
		MaxTabs: maxTabs, Priority: prio, Handoff: req.HandoffAllowed, Task: req.Task, HasSecret: secret != "",
		State: Queued, Summary: "queued", Created: time.Now().Truncate(time.Millisecond), Origin: q.cfg.Worker,
	}
	j.Task.Password = ""
	q.mu.Lock()
	closed := q.closed
	if secret != "" {
		// Only this process knows the password: it holds the job from the
		// start, and the secret is here before any claim can see the job.
		j.Worker, j.Lease = q.cfg.Worker, time.Now().Add(q.cfg.Lease)
		q.secrets[j.ID] = secret
	}
	q.mu.Unlock()
	if closed {
		return nil, false, errors.New("the job queue is shut down")
	}
	stored, created, err := q.store.Create(ctx, j)
	if err != nil || !created {
		q.mu.Lock()
		delete(q.secrets, j.ID)
		q.mu.Unlock()
	}
	if err != nil {
		return nil, false, err
	}
	if !created {
		return q.retried(stored, req, prio, maxTabs)
	}
	slog.Info("job queued", "job", stored.ID, "tenant", tenant.Label(owner), "type", stored.Task.Type, "priority", stored.Priority, "profile", stored.Profile, "correlationId", stored.CorrelationID)
	q.poke()
	return stored, true, nil
}

// validate checks a request and fills in its defaults.
func (q *Queue) validate(r *SubmitRequest) error {
	if strings.TrimSpace(r.CorrelationID) == "" {
		return inputErr("pass any string that ties your calls together, e.g. \"order-1234\"", "correlationId is empty")
	}
	if len(r.CorrelationID) > 256 {
		return inputErr("use at most 256 characters", "correlationId is too long")
	}
	if err := q.checkURL(r.URL); err != nil {
		return err
	}
	if r.Profile != "" && !profileName.MatchString(r.Profile) {
		return inputErr("use letters, digits, '.', '_' and '-' (at most 64), e.g. \"openclaw\"", "profile %q is not a valid profile name", r.Profile)
	}
	if r.MaxTabs < 0 || r.MaxTabs > 50 {
		return inputErr("maxTabs is 1 to 50", "maxTabs %d is out of range", r.MaxTabs)
	}
	if r.Priority != nil && (*r.Priority < 0 || *r.Priority > 10) {
		return inputErr("priority is 0 (lowest) to 10 (highest)", "priority %d is out of range", *r.Priority)
	}
	t := &r.Task
	if t.TimeoutMs < 0 || t.TimeoutMs > 3_600_000 {
		return inputErr("task.timeoutMs is 1 to 3600000 (one hour)", "task.timeoutMs %d is out of range", t.TimeoutMs)
	}
	for i, s := range t.Selectors {
		if strings.TrimSpace(s) == "" {
			return inputErr("give CSS selectors such as \"h1\" or \"#price\"", "task.selectors[%d] is empty", i)
		}
	}
	act := func() error {
		if q.cfg.ReadOnly {
			return inputErr("the server runs with --read-only: only navigate and extract jobs are allowed", "a %s job acts on the page", t.Type)
		}
		return nil
	}
	switch t.Type {
	case TaskNavigate:
	case TaskExtract:
		if len(t.Selectors) == 0 && len(t.Extract) == 0 {
			return inputErr("give task.selectors (CSS selectors whose text you want) or task.extract (a JSON schema whose properties may carry x-selector)", "an extract job needs selectors or an extract schema")
		}
		if len(t.Extract) > 0 {
			if err := extract.CheckSchema(t.Extract); err != nil {
				return inputErr("give a JSON schema object such as {\"type\":\"object\",\"properties\":{\"price\":{\"type\":\"number\"}}}", "task.extract: %v", err)
			}
		}
	case TaskMessage:
		if len(t.Selectors) < 2 {
			return inputErr("give task.selectors as [field, send button], e.g. [\"#message\", \"button[type=submit]\"]", "a message job needs two selectors, the field and the send button")
		}
		if t.Text == "" {
			return inputErr("put the message in task.text", "a message job needs task.text")
		}
		return act()
	case TaskLogin:
		if len(t.Selectors) > 3 {
			return inputErr("give at most [user field, password field, submit button]", "a login job takes at most three selectors")
		}
		return act()
	case TaskCustom:
		if strings.TrimSpace(t.Instructions) == "" {
			return inputErr("say what to do in task.instructions", "a custom job needs task.instructions")
		}
		if q.cfg.Agent == nil && !q.door { // a door cannot know: the runner checks
			return inputErr("start cdpmcp with --llm-base-url (and --llm-model) so custom jobs have a model to run the agent loop", "custom jobs need a model and none is configured")
		}
		return act()
	case TaskScript:
		if err := q.checkScript(t); err != nil {
			return err
		}
		return act()
	case "":
		return inputErr("set task.type to navigate, extract, login, message, custom or script", "task.type is missing")
	default:
		return inputErr("use navigate, extract, login, message, custom or script", "task.type %q is not a known task type", t.Type)
	}
	return nil
}

func (q *Queue) checkURL(raw string) error {
	u, err := cdpclient.CheckURL(raw)
	if err != nil {
		var ae *cdpclient.ArgError
		if errors.As(err, &ae) {
			return inputErr(ae.Hint, "url: %s", ae.Msg)
		}
		return inputErr("give an absolute http(s) URL", "url: %v", err)
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" && !(s == "file" && q.cfg.Origins != nil && q.cfg.Origins.AllowFile) {
		return inputErr("jobs open http and https URLs", "url %q has scheme %q", raw, u.Scheme)
	}
	if err := q.cfg.Origins.Check(raw); err != nil {
		return inputErr("the server's --allowed-origins/--blocked-origins rules refuse it", "url: %v", err)
	}
	return nil
}

// newID returns a job id: "job-" and 80 random bits.
func newID() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return "job-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// retried answers a retry of the job stored under the request's key: that
// job, as it is now, if the arguments are the same; else a ConflictError.
func (q *Queue) retried(stored *Job, req SubmitRequest, prio, maxTabs int) (*Job, bool, error) {
	if diff := differences(stored, req, prio, maxTabs); len(diff) > 0 {
		return nil, false, &ConflictError{CorrelationID: req.CorrelationID, JobID: stored.ID, State: stored.State, Fields: diff}
	}
	return q.withUnsaved(stored), false, nil
}
