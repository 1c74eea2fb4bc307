package tools

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/mark3labs/mcp-go/mcp"
)

// The files tools and jobs write (an audit's data and report, a recording's
// trace, HAR and video, a PDF, a job's screenshot, trace, HAR and video) are
// offered as resource_link contents a client reads with resources/read, not
// only as paths on the server's disk. A link works for the tenant it was
// given to: another tenant's link is "resource not found", as a link never
// given out.
//
//	cdpmcp://files/{token}/{name}    a file a tool call wrote; token is 128
//	                                 random bits, kept in this process's memory
//	cdpmcp://jobs/{jobId}/{artifact} a job's artifact (screenshot, trace,
//	                                 networkLog, video), for as long as the job
//	                                 and its file are kept, across restarts

// maxResourceBytes bounds a file sent through resources/read (base64 in one
// JSON message); a bigger one is read from its path.
const maxResourceBytes = 64 << 20

// maxOffered bounds how many tool-call files are remembered; the oldest go.
const maxOffered = 10000

// offeredFile is a file a tool call wrote, offered to its caller's tenant.
type offeredFile struct {
	tenant, path string
}

// fileLinks remembers the files offered by tool calls.
type fileLinks struct {
	mu    sync.Mutex
	files map[string]offeredFile // token → file
	order []string
}

// offer remembers path for ctx's tenant and returns the link to it.
func (f *fileLinks) offer(ctx context.Context, path string) mcp.ResourceLink {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := base64.RawURLEncoding.EncodeToString(b[:])
	f.mu.Lock()
	if f.files == nil {
		f.files = map[string]offeredFile{}
	}
	f.files[token] = offeredFile{tenant: tenant.Of(ctx), path: path}
	f.order = append(f.order, token)
	if len(f.order) > maxOffered {
		delete(f.files, f.order[0])
		f.order = f.order[1:]
	}
	f.mu.Unlock()
	name := filepath.Base(path)
	return mcp.NewResourceLink("cdpmcp://files/"+token+"/"+url.PathEscape(name), name, "written by this call; on the server at "+path, mimeOf(path))
}

// find returns the path behind token for ctx's tenant.
func (f *fileLinks) find(ctx context.Context, token string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.files[token]
	return o.path, ok && o.tenant == tenant.Of(ctx)
}

// jobArtifactLinks are the links to job j's artifacts.
func jobArtifactLinks(j *jobs.Job) []mcp.Content {
	var out []mcp.Content
	for _, a := range []struct{ name, path string }{
		{"screenshot", j.Artifacts.Screenshot}, {"trace", j.Artifacts.Trace}, {"networkLog", j.Artifacts.NetworkLog}, {"video", j.Artifacts.Video},
	} {
		if a.path != "" {
			out = append(out, mcp.NewResourceLink("cdpmcp://jobs/"+j.ID+"/"+a.name, j.ID+" "+a.name, "job "+j.ID+"'s "+a.name+"; on the server at "+a.path, mimeOf(a.path)))
		}
	}
	return out
}

// addResources registers the two resource templates.
func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(mcp.NewResourceTemplate("cdpmcp://files/{token}/{name}", "files",
		mcp.WithTemplateDescription("A file a tool call wrote (resource_link in its answer): an audit's data or report, a recording, a PDF.")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			token, _ := req.Params.Arguments["token"].(string)
			if t, ok := req.Params.Arguments["token"].([]string); ok && len(t) > 0 {
				token = t[0]
			}
			path, ok := s.links.find(ctx, token)
			if !ok {
				return nil, notFound(req.Params.URI)
			}
			return readFile(req.Params.URI, path)
		})
	if s.cfg.Jobs == nil {
		return
	}
	s.mcp.AddResourceTemplate(mcp.NewResourceTemplate("cdpmcp://jobs/{jobId}/{artifact}", "job artifacts",
		mcp.WithTemplateDescription("A job's artifact: screenshot, trace, networkLog or video (resource_link in browser.job.status).")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			id, name := templateArg(req, "jobId"), templateArg(req, "artifact")
			q, err := s.cfg.Jobs(ctx)
			if err != nil {
				return nil, fmt.Errorf("the job queue is not available: %w", err)
			}
			j, err := q.Status(ctx, id)
			if errors.Is(err, jobstore.ErrNotFound) {
				return nil, notFound(req.Params.URI)
			} else if err != nil {
				return nil, err
			}
			path := map[string]string{"screenshot": j.Artifacts.Screenshot, "trace": j.Artifacts.Trace,
				"networkLog": j.Artifacts.NetworkLog, "video": j.Artifacts.Video}[name]
			if path == "" {
				return nil, notFound(req.Params.URI)
			}
			return readFile(req.Params.URI, path)
		})
}

// templateArg is the value of a URI template's variable.
func templateArg(req mcp.ReadResourceRequest, name string) string {
	switch v := req.Params.Arguments[name].(type) {
	case string:
		return v
	case []string:
		if len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

func notFound(uri string) error {
	return fmt.Errorf("%w: %s", mcp.ErrResourceNotFound, uri)
}

// readFile answers resources/read with the file at path: text for text
// types, base64 otherwise.
func readFile(uri, path string) ([]mcp.ResourceContents, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s (the file %s is gone: %v)", mcp.ErrResourceNotFound, uri, path, err)
	}
	if st.Size() > maxResourceBytes {
		return nil, fmt.Errorf("%s is %d MB, more than resources/read sends (%d MB): read it on the server at %s", uri, st.Size()>>20, maxResourceBytes>>20, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	m := mimeOf(path)
	if strings.HasPrefix(m, "text/") || m == "application/json" || strings.HasSuffix(m, "+json") || m == "application/x-ndjson" {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: m, Text: string(b)}}, nil
	}
	return []mcp.ResourceContents{mcp.BlobResourceContents{URI: uri, MIMEType: m, Blob: base64.StdEncoding.EncodeToString(b)}}, nil
}

// mimeOf is the MIME type of a file cdpmcp writes, by its extension.
func mimeOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl":
		return "application/x-ndjson"
	case ".har":
		return "application/json"
	case ".webm":
		return "video/webm"
	}
	if m := mime.TypeByExtension(filepath.Ext(path)); m != "" {
		return strings.TrimSpace(strings.Split(m, ";")[0])
	}
	return "application/octet-stream"
}

// OpenTabs counts the tabs the MCP sessions have open now, in their browser
// contexts (named ones too), for /metrics.
func (s *Server) OpenTabs() int {
	ss := s.sessions
	ss.mu.Lock()
	states := make([]*clientState, 0, len(ss.byID))
	for _, st := range ss.byID {
		states = append(states, st)
	}
	ss.mu.Unlock()
	n := 0
	for _, st := range states {
		st.mu.Lock()
		if st.bc != nil {
			n += len(st.bc.Pages())
		}
		for _, bc := range st.named {
			n += len(bc.Pages())
		}
		st.mu.Unlock()
	}
	return n
}
