package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Goals from the design: initialize ≤ 30 ms, idle RSS ≤ 40 MB, a small tools/list.
// Run with `make bench`.

// BenchmarkInitialize measures the MCP handshake. inprocess and inprocess-legacy
// are the server's own cost (the default negotiation, which tries the stateless
// 2026-07-28 core first, and the initialize handshake of 2025-11-25); stdio is
// what a client waits for: spawning the binary until initialize is answered.
func BenchmarkInitialize(b *testing.B) {
	st, err := build(config{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.close()
	ctx := context.Background()
	for _, bc := range []struct{ name, version string }{
		{"inprocess", ""},
		{"inprocess-legacy", mcp.LATEST_LEGACY_PROTOCOL_VERSION},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var durs []time.Duration
			for b.Loop() {
				start := time.Now()
				c, err := client.NewInProcessClient(st.srv.MCP())
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Start(ctx); err != nil {
					b.Fatal(err)
				}
				if _, err := initialize(ctx, c, bc.version); err != nil {
					b.Fatal(err)
				}
				durs = append(durs, time.Since(start))
				_ = c.Close()
			}
			reportMedian(b, durs)
		})
	}
	b.Run("stdio", func(b *testing.B) {
		var durs []time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			s := startStdio(b, "bench-init")
			if _, err := initialize(ctx, s.c, ""); err != nil {
				b.Fatal(err)
			}
			durs = append(durs, time.Since(start))
			b.StopTimer()
			if err := s.c.Close(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		reportMedian(b, durs)
	})
}

// BenchmarkIdleRSS reports the resident memory of `cdpmcp serve` after
// initialize and tools/list, before any browser is launched. ns/op is the cold
// start (spawn, initialize, tools/list).
func BenchmarkIdleRSS(b *testing.B) {
	ctx := context.Background()
	var rss []float64
	for i := 0; i < b.N; i++ {
		s := startStdio(b, "bench-rss")
		if _, err := initialize(ctx, s.c, ""); err != nil {
			b.Fatal(err)
		}
		if _, err := s.c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		kb, err := vmRSSKiB(s.cmd.Process.Pid)
		if err != nil {
			b.Fatal(err)
		}
		rss = append(rss, float64(kb)/1024)
		if _, ok := fixtures.FindBrowser(s.marker); ok {
			b.Fatal("a browser was launched before the first tool call")
		}
		if err := s.c.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	slices.Sort(rss)
	b.ReportMetric(rss[len(rss)/2], "RSS-MB")
}

// BenchmarkToolsList measures tools/list in process and reports the size of the
// tool array as JSON (as mcpbench counts it) and, when node and gpt-tokenizer are
// at hand (../shared/bench), its o200k token count.
func BenchmarkToolsList(b *testing.B) {
	st, err := build(config{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.close()
	ctx := context.Background()
	c, err := client.NewInProcessClient(st.srv.MCP())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := initialize(ctx, c, ""); err != nil {
		b.Fatal(err)
	}
	var list *mcp.ListToolsResult
	for b.Loop() {
		if list, err = c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
			b.Fatal(err)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as JSON.stringify writes it
	if err := enc.Encode(list.Tools); err != nil {
		b.Fatal(err)
	}
	js := bytes.TrimSpace(buf.Bytes())
	b.ReportMetric(float64(len(js)), "bytes")
	b.ReportMetric(float64(len(list.Tools)), "tools")
	if n, err := o200kTokens(js); err != nil {
		b.Logf("no token count: %v", err)
	} else {
		b.ReportMetric(float64(n), "o200k-tokens")
	}
}

// reportMedian adds the median of durs in milliseconds as a metric.
func reportMedian(b *testing.B, durs []time.Duration) {
	if len(durs) == 0 {
		return
	}
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2])/float64(time.Millisecond), "median-ms")
}

// vmRSSKiB reads VmRSS of a process from /proc.
func vmRSSKiB(pid int) (int, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, os.ErrNotExist
}

// o200kTokens counts the o200k tokens of text with gpt-tokenizer under node.
func o200kTokens(text []byte) (int, error) {
	dir := os.Getenv("CDPMCP_TOKENIZER_DIR")
	if dir == "" {
		dir = "../../../shared/bench/node_modules/gpt-tokenizer"
	}
	enc, err := filepath.Abs(filepath.Join(dir, "cjs", "encoding", "o200k_base.js"))
	if err != nil {
		return 0, err
	}
	if _, err := os.Stat(enc); err != nil {
		return 0, err
	}
	script := `const {countTokens} = require(process.argv[1]);
let s = ''; process.stdin.on('data', d => s += d).on('end', () => console.log(countTokens(s)));`
	cmd := exec.Command("node", "-e", script, enc)
	cmd.Stdin = bytes.NewReader(text)
	out, err := cmd.Output()
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}
