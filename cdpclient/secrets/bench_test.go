package secrets

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/secrettest"
)

// snapshotText is a large page model as snapshot writes it (about 300 kB):
// the reading text of a real article from the corpus, element lines with
// names, values and links, table rows, and some URLs with escapes.
func snapshotText(b *testing.B) string {
	b.Helper()
	article := corpusFile(b, "ars-1.expected.txt.gz")
	var s strings.Builder
	ref := 1
	for s.Len() < 300<<10 {
		for _, para := range strings.Split(article, "\n") {
			if para = strings.TrimSpace(para); para == "" {
				continue
			}
			fmt.Fprintf(&s, "_[:]%s\n", para)
			fmt.Fprintf(&s, "%d[:]<a href=\"/story/%d?utm=a%%20b&x=%d\">Read more</a> Invoice %d | ACME | $40.00\n", ref, ref, ref, ref)
			fmt.Fprintf(&s, "%d[:]<input type=email value=\"ann%d@example.com\" placeholder=\"you@example.com\">Email</input>\n", ref+1, ref)
			if ref%40 == 1 {
				fmt.Fprintf(&s, "_[:]… 12 more links in this menu: snapshot {ref: %d}\n", ref)
			}
			ref += 2
		}
	}
	return s.String()
}

// Redaction runs on every result: a large snapshot with a typed password
// and a --secret-env value known.
func BenchmarkRedactSnapshot(b *testing.B) {
	text := snapshotText(b)
	r := New()
	r.Add("hunter2~Pass")
	r.Add("tok_9f8e7d6c5b4a3210")
	_ = Cut(text, len(text)/2) // cuts are remembered: every redaction looks for them
	redactLoop(b, r, text)
}

// The secrets table of the tests (56 values, typed key by key as the
// secrets-table test types them, so their starts are searched too) known
// while a large snapshot holding none of them is redacted: the cost of each
// answer once a session has entered many secrets.
func BenchmarkRedactSnapshotTable(b *testing.B) {
	text := snapshotText(b)
	r := tableRegistry()
	redactLoop(b, r, text)
}

// The two values of BenchmarkRedactSnapshot and one of punctuation only,
// which has no anchor (no run of three letters or digits): every run of
// base64's alphabet in the text is decoded and searched, as with the table.
// Beside BenchmarkRedactSnapshotTable, it says what the number of values
// costs apart from that.
func BenchmarkRedactSnapshotNoAnchor(b *testing.B) {
	text := snapshotText(b)
	r := New()
	r.Add("hunter2~Pass")
	r.Add("tok_9f8e7d6c5b4a3210")
	r.Add("~*_!")
	redactLoop(b, r, text)
}

// A corpus page's HTML (entities, URLs with escapes, scripts) as content
// or a network body returns it, with the table known.
func BenchmarkRedactHTMLTable(b *testing.B) {
	text := corpusFile(b, "ars-1.html.gz")
	r := tableRegistry()
	redactLoop(b, r, text)
}

func tableRegistry() *Registry {
	r := New()
	for _, s := range secrettest.Secrets() {
		r.Enter(s, Entry{Typed: true})
	}
	return r
}

// corpusFile reads a gzipped file of fixtures/corpus.
func corpusFile(b *testing.B, name string) string {
	return readGzip(b, "../../fixtures/corpus/"+name)
}

// redactLoop redacts text with r b.N times and reports, beside the wall
// time, the process's CPU time an op (cpu-ns/op): the steadier number on a
// machine other work shares.
func redactLoop(b *testing.B, r *Registry, text string) {
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	start := cpuTime(b)
	for b.Loop() {
		_ = r.Redact(text)
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A JSON answer (one line: its newlines are escapes) that echoes a typed
// password many times, as a page that repeats what is typed into it would:
// each echo found is checked for cdpmcp's markup around it, which must not
// read the line back from its start each time.
func BenchmarkRedactEchoesOnOneLine(b *testing.B) {
	for _, n := range []int{500, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := New()
			r.Add("hunter2~Pass")
			var s strings.Builder
			s.WriteString(`{"snapshot":"1[:]<input type=password filled>Password</input>\n`)
			for i := range n {
				fmt.Fprintf(&s, `_[:]echo %d: hunter2~Pass and more text of the page around it\n`, i)
			}
			s.WriteString(`"}`)
			redactLoop(b, r, s.String())
		})
	}
}
