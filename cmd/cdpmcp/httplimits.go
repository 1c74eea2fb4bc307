package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// requestLimits bound what one HTTP request may cost the server, so that a slow
// or oversized client gets a clear error and leaves the others unaffected.
type requestLimits struct {
	// MaxBody is the largest request body accepted, in bytes.
	MaxBody int64
	// ReadTimeout bounds reading a request's header, and then its body.
	ReadTimeout time.Duration
}

const (
	defaultMaxBody     = 8 << 20
	defaultReadTimeout = 10 * time.Second
	maxHeaderBytes     = 64 << 10
	idleConnTimeout    = 2 * time.Minute
)

// limitBodies reads a request's body whole before the handler sees it: at most
// MaxBody bytes (413 beyond), within ReadTimeout (408 after). The read deadline
// is lifted afterwards, since an answer may stream for as long as a tool runs.
func limitBodies(next http.Handler, l requestLimits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > l.MaxBody {
			tooLarge(w, r.ContentLength, l.MaxBody)
			return
		}
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(l.ReadTimeout))
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, l.MaxBody))
		// On failure the deadline stays: the server's own attempt to drain
		// what is left of the body must not wait on the client either.
		var (
			mbe *http.MaxBytesError
			ne  net.Error
		)
		switch {
		case errors.As(err, &mbe):
			tooLarge(w, -1, l.MaxBody)
			return
		case errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Request Timeout: the request body did not arrive within %s (--http-read-timeout)", l.ReadTimeout), http.StatusRequestTimeout)
			return
		case err != nil:
			http.Error(w, "Bad Request: reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		_ = rc.SetReadDeadline(time.Time{})
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

func tooLarge(w http.ResponseWriter, size, limit int64) {
	w.Header().Set("Connection", "close")
	what := "the request body"
	if size >= 0 {
		what = fmt.Sprintf("a request body of %d bytes", size)
	}
	http.Error(w, fmt.Sprintf("Request Entity Too Large: %s exceeds the %d byte limit (--http-max-body); send less, e.g. a shorter expression", what, limit), http.StatusRequestEntityTooLarge)
}

// newHTTPServer is the listener's server: header read bounded, idle keep-alive
// connections closed, no write timeout (answers stream for as long as a tool
// runs; cancellation ends them).
func newHTTPServer(h http.Handler, l requestLimits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadTimeout,
		IdleTimeout:       idleConnTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}
