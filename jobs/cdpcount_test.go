package jobs_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// cdpCounter counts the CDP commands sent to job browsers, by method: each
// one costs the browser process CPU (BenchmarkThroughput reports them a job).
type cdpCounter struct {
	mu       sync.Mutex
	byMethod map[string]int
}

func (c *cdpCounter) TraceCDP(dir string, msg []byte) {
	if dir != "send" {
		return
	}
	var m struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byMethod == nil {
		c.byMethod = map[string]int{}
	}
	c.byMethod[m.Method]++
}

// take returns the count so far and the methods sent at least once a job
// in n jobs, most sent first ("Runtime.evaluate 9.0, …"), and starts again.
func (c *cdpCounter) take(n int) (total int, perJob string) {
	c.mu.Lock()
	counts := c.byMethod
	c.byMethod = nil
	c.mu.Unlock()
	type count struct {
		method string
		n      int
	}
	var all []count
	for m, k := range counts {
		total += k
		if k >= n {
			all = append(all, count{m, k})
		}
	}
	slices.SortFunc(all, func(a, b count) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.method, b.method)
	})
	var parts []string
	for _, e := range all {
		parts = append(parts, fmt.Sprintf("%s %.1f", e.method, float64(e.n)/float64(n)))
	}
	return total, strings.Join(parts, ", ")
}
