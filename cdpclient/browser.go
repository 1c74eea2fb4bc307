package cdpclient

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/cdpmcp/cdpmcp/cdpclient/egress"
	"github.com/cdpmcp/cdpmcp/cdpclient/fetchguard"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
)

// Options say how to get a browser: attach to Endpoint if set, or to the
// user's running Chrome with AutoConnect, else launch one.
type Options struct {
	Launch LaunchOptions
	// Endpoint is an existing browser's http://host:port or ws:// URL, or a
	// browser service's wss:// URL.
	Endpoint string
	// AllowRemote permits an Endpoint that is not on loopback.
	AllowRemote bool
	// Header goes with every request to Endpoint (its /json/version and the
	// websocket handshake): a browser service's token (--cdp-header). It is
	// never logged, traced or shown in an error.
	Header http.Header
	// AutoConnect attaches to the user's running Chrome or Chromium, found
	// by the DevToolsActivePort in its profile folder
	// (browserproc.AutoConnect; Launch.UserDataDir, if set, is the one
	// folder looked in). It is looked for again on each connection.
	AutoConnect bool
	// Pool says Endpoint hands out a fresh browser on each connection (a
	// browser service such as Browserless): the job fleet connects once per
	// job (jobs' --browser-pool) instead of sharing one connection.
	Pool bool
	// Tracer, if set, sees every CDP message.
	Tracer cdpconn.Tracer
	// Origins, if it restricts anything, is enforced on every request the
	// browser makes for us (see cdpclient/fetchguard and the egress package).
	Origins *origins.List
	// Dialogs says what happens to a JavaScript dialog no one answered when
	// the next call meets it (default DialogsReport).
	Dialogs DialogPolicy
	// Reserved are host:port addresses of this process (its HTTP listener)
	// that pages may never reach, whatever Origins allows.
	Reserved []string
	// Secrets, if set, learns the values typed or filled into password
	// fields (see BrowserContext.Secrets); else the browser keeps its own.
	Secrets *secrets.Registry
	// DownloadsDir, if set, is where downloads are saved: the default
	// context's there, each isolated context's in a subfolder
	// (cdpclient/network).
	DownloadsDir string
	// SetupContext, if set, runs on the default context once connected and
	// on every context cdpmcp creates, before it is used: a feature's
	// set-up of every context (state.Loader loads a storage state into each,
	// signed in from the start). An error fails the connection or the
	// context.
	SetupContext func(ctx context.Context, bc *BrowserContext) error
}

// Browser is one connected browser: launched by us or attached to.
type Browser struct {
	m       *cdpconn.Mux
	root    *session
	client  *cdp.Client
	proc    *process // nil when attached
	policy  *origins.List
	dialogs DialogPolicy
	egress  *egress.Proxy // nil without origin rules (its methods take nil as none)
	secrets *secrets.Registry
	opts    Options
	hooks   []Hooks // the features' (doordl.go)
	// guard is the interception of its requests: origin rules, proxy
	// credentials (cdpclient/fetchguard).
	guard *fetchguard.Guard

	mu       sync.Mutex
	front    *Page // the tab last brought to the front; nil when not known
	opened   int   // tabs attached so far: each one opens in front
	pages    map[target.ID]*Page
	waiters  map[target.ID]chan *Page
	contexts map[string]*BrowserContext // created by us, by browserContextId
	own      ownTabs                    // the tabs cdpmcp opened (letgo.go)
	starting atomic.Bool                // attaching to the tabs the browser had (heldtab.go)
	def      *BrowserContext            // everything else
}

// Connect launches or attaches to a browser as opts say.
func Connect(ctx context.Context, opts Options) (*Browser, error) {
	var (
		wsURL string
		proc  *process
	)
	proxy, err := egress.ForBrowser(opts.Origins, opts.Reserved)
	if err != nil {
		return nil, err
	}
	attached := browserproc.DisplayEndpoint(opts.Endpoint)
	switch {
	case opts.AutoConnect:
		var profile string
		if wsURL, profile, err = browserproc.AutoConnect(ctx, opts.Launch.UserDataDir); err == nil {
			attached = wsURL
			slog.Info("--auto-connect found a running browser", "profile", profile, "endpoint", wsURL)
		}
	case opts.Endpoint != "":
		wsURL, err = browserproc.ResolveEndpoint(ctx, opts.Endpoint, opts.AllowRemote, opts.Header)
	default:
		proc, err = launch(ctx, opts.Launch, proxy.LaunchFlags())
		if proc != nil {
			wsURL = proc.wsURL
		}
	}
	if err != nil {
		_ = proxy.Close()
		return nil, err
	}
	proxy.ReserveEndpoint(wsURL)
	m, err := cdpconn.Dial(ctx, wsURL, opts.Tracer, attached, opts.Header)
	if err != nil {
		if proc != nil {
			proc.close()
		}
		_ = proxy.Close()
		return nil, browserproc.DialError(ctx, attached, err, len(opts.Header) > 0)
	}
	b := &Browser{
		m:        m,
		proc:     proc,
		policy:   opts.Origins,
		dialogs:  opts.Dialogs,
		egress:   proxy,
		guard:    fetchguard.New(opts.Origins, opts.Launch.Proxy),
		secrets:  opts.Secrets,
		opts:     opts,
		hooks:    featureHooks,
		pages:    make(map[target.ID]*Page),
		waiters:  make(map[target.ID]chan *Page),
		contexts: make(map[string]*BrowserContext),
	}
	if b.secrets == nil {
		b.secrets = secrets.New()
	}
	b.def = newBrowserContext(b, "", false)
	if b.root, err = b.open("", b.onEvent); err != nil {
		b.Close()
		return nil, err
	}
	b.client = cdp.NewClient(b.root.conn)
	if err := b.start(ctx); err != nil {
		b.Close()
		return nil, err
	}
	if err := b.setUp(ctx, b.def); err != nil {
		b.Close()
		return nil, err
	}
	if opts.SetupContext != nil {
		if err := opts.SetupContext(ctx, b.def); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// start turns on target discovery and attaches to every page, existing and new.
func (b *Browser) start(ctx context.Context) error {
	if err := b.client.Target.SetDiscoverTargets(ctx, target.NewSetDiscoverTargetsArgs(true)); err != nil {
		return fmt.Errorf("Target.setDiscoverTargets: %w", err)
	}
	args := target.NewSetAutoAttachArgs(true, true).SetFlatten(true).SetFilter(pageFilter())
	// The browser attaches its tabs before it answers (their events come
	// first, on the one connection).
	b.starting.Store(true)
	err := b.client.Target.SetAutoAttach(ctx, args)
	b.starting.Store(false)
	if err != nil {
		return fmt.Errorf("Target.setAutoAttach: %w", err)
	}
	// Existing tabs are attached by now; wait until they are set up so the first
	// tool call finds them: in a browser cdpmcp attached to, up to heldAfter,
	// past which they are listed held (heldtab.go); in one it launched (no
	// dialog open in its first tab, which may be slow to set up on a loaded
	// machine) up to 10 s, past which a tool that asks for the current page
	// waits for it (currentOrSetUp).
	b.mu.Lock()
	var pages []*Page
	for _, p := range b.pages {
		pages = append(pages, p)
	}
	b.mu.Unlock()
	wait := heldAfter
	if b.proc != nil {
		wait = 10 * time.Second
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for _, p := range pages {
		if _, err := b.waitForPage(wctx, p.targetID); err != nil {
			if b.proc != nil {
				slog.Debug("existing tab not ready", "target", p.targetID, "err", err)
				continue
			}
			slog.Info("a tab of the browser does not answer; listed, held (a dialog open in it?)", "target", p.targetID, "url", p.URL(), "err", err)
			b.listHeld(p)
		}
	}
	return nil
}

// pageFilter attaches to tabs, and to the workers that can make requests of their
// own (so the origin policy covers them).
func pageFilter() target.Filter {
	page, sw, shared, yes := "page", "service_worker", "shared_worker", true
	return target.Filter{{Type: &page}, {Type: &sw}, {Type: &shared}, {Exclude: &yes}}
}

// Launched reports whether this process started the browser (and so may close it).
func (b *Browser) Launched() bool { return b.proc != nil }

// Done is closed when the browser connection is gone.
func (b *Browser) Done() <-chan struct{} { return b.m.Done() }

// Alive reports whether the connection to the browser is still up and, for
// a browser cdpmcp launched, its process has not exited: a killed browser's
// connection can outlive its process by a moment, and a call sent on it then
// fails where a new browser would have answered.
func (b *Browser) Alive() bool {
	var exited <-chan struct{}
	if b.proc != nil {
		exited = b.proc.Exited()
	}
	select {
	case <-b.m.Done():
		return false
	case <-exited:
		return false
	default:
		return true
	}
}

// Close disconnects. A browser we launched is shut down, its process group ended
// and its temporary profile removed; an attached browser is left running, as
// the person had it (letGo). Close blocks until all of that is done.
func (b *Browser) Close() {
	b.letGo()
	if b.proc != nil && !b.proc.Disposable() && b.client != nil && b.Alive() {
		ctx, cancel := context.WithTimeout(context.Background(), 2e9)
		_ = b.client.Browser.Close(ctx)
		cancel()
	}
	_ = b.m.Close()
	if b.proc != nil {
		b.proc.close()
	}
	_ = b.egress.Close()
}

// Default returns the browser's default context: the user's own tabs when
// attached, the launch tab otherwise.
func (b *Browser) Default() *BrowserContext { return b.def }
