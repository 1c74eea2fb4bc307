// Package prom writes metrics in the Prometheus text exposition format
// (version 0.0.4), and keeps the histograms behind them: enough for a
// /metrics page without the client library.
package prom

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// ContentType is the text format's media type.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Labels are a sample's labels.
type Labels map[string]string

// Writer writes metric families to w; the first error sticks (Err).
type Writer struct {
	w   io.Writer
	err error
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Err returns the first write error.
func (w *Writer) Err() error { return w.err }

func (w *Writer) printf(format string, args ...any) {
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.w, format, args...)
	}
}

// Sample is one value of a family.
type Sample struct {
	Labels Labels
	Value  float64
}

// Family writes a counter or gauge family (kind "counter" or "gauge").
func (w *Writer) Family(name, kind, help string, samples ...Sample) {
	w.printf("# HELP %s %s\n# TYPE %s %s\n", name, escapeHelp(help), name, kind)
	for _, s := range samples {
		w.printf("%s%s %s\n", name, labels(s.Labels, "", ""), num(s.Value))
	}
}

// Histogram writes a histogram family with one series per labelled snapshot.
func (w *Writer) Histogram(name, help string, series map[string]HistogramSnapshot, label string) {
	w.printf("# HELP %s %s\n# TYPE %s histogram\n", name, escapeHelp(help), name)
	keys := make([]string, 0, len(series))
	for k := range series {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := series[k]
		ls := Labels{}
		if label != "" {
			ls[label] = k
		}
		var cum uint64
		for i, b := range s.Buckets {
			cum += s.Counts[i]
			w.printf("%s_bucket%s %d\n", name, labels(ls, "le", num(b)), cum)
		}
		w.printf("%s_bucket%s %d\n", name, labels(ls, "le", "+Inf"), s.Count)
		w.printf("%s_sum%s %s\n%s_count%s %d\n", name, labels(ls, "", ""), num(s.Sum), name, labels(ls, "", ""), s.Count)
	}
}

func labels(ls Labels, extraName, extraValue string) string {
	keys := make([]string, 0, len(ls))
	for k := range ls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+`="`+escapeValue(ls[k])+`"`)
	}
	if extraName != "" {
		parts = append(parts, extraName+`="`+extraValue+`"`)
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func num(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	valueEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeValue(s string) string { return valueEscaper.Replace(s) }

// Histogram counts observations into buckets (upper bounds, ascending). It
// is safe for concurrent use.
type Histogram struct {
	mu     sync.Mutex
	bounds []float64
	counts []uint64
	sum    float64
	count  uint64
}

// NewHistogram returns a histogram with the given bucket upper bounds.
func NewHistogram(bounds ...float64) *Histogram {
	return &Histogram{bounds: bounds, counts: make([]uint64, len(bounds))}
}

// Observe counts v.
func (h *Histogram) Observe(v float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sum += v
	h.count++
	if i := sort.SearchFloat64s(h.bounds, v); i < len(h.bounds) {
		h.counts[i]++
	}
}

// HistogramSnapshot is a histogram's state at one moment: Counts per bucket
// (not cumulative), and the total Count (the +Inf bucket).
type HistogramSnapshot struct {
	Buckets []float64
	Counts  []uint64
	Sum     float64
	Count   uint64
}

// Snapshot returns the histogram's state.
func (h *Histogram) Snapshot() HistogramSnapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	return HistogramSnapshot{Buckets: h.bounds, Counts: append([]uint64(nil), h.counts...), Sum: h.sum, Count: h.count}
}
