package snapshot

import (
	"fmt"
	"sort"
	"strings"
)

// Default budget policy: a snapshot shows every element a user can act on (up to
// MaxElementTokens of them) and context text up to DefaultTokens in all, keeping
// at least MinTextTokens of text when the elements alone use most of that.
const (
	DefaultTokens    = 3800
	MinTextTokens    = 600
	MaxElementTokens = 12000
)

// minRun is the shortest run of text lines whose middle is worth eliding.
const minRun = 8

// DefaultBudget is the budget for lines when the caller names none: enough for
// every element (within MaxElementTokens) plus MinTextTokens of text, and at
// least DefaultTokens.
func DefaultBudget(lines []string) int {
	elems := 0
	for _, l := range lines {
		if Ref(l) > 0 {
			elems += lineCost(l)
			continue
		}
		for _, e := range elements(l) {
			elems += lineCost(e)
		}
	}
	return max(DefaultTokens, min(elems, MaxElementTokens)+MinTextTokens)
}

// Fit makes lines fit a budget of estimated tokens and says what it left out.
// Elements a user can act on are the last thing given up:
//  1. the middles of the longest runs of text lines are elided (a list keeps its
//     first lines and its last), each marked "… N more lines";
//  2. from a point on to the end, text is left out and only elements (and
//     headings) are shown; a marker line says so;
//  3. only then are lines cut from the end, with a count of what is missing.
//
// budget ≤ 0 means no limit.
func Fit(lines []string, budget int) []string {
	if budget <= 0 {
		return lines
	}
	f := newFitter(lines)
	if f.total <= budget {
		return lines
	}
	f.elideRuns(budget)
	out, cost := f.assemble()
	if sum(cost) > budget {
		out, cost = textFreeTail(out, cost, budget)
	}
	if sum(cost) > budget {
		out = cutTail(out, cost, budget)
	}
	return out
}

// lineCost is what a line costs in a snapshot: its tokens and the newline.
func lineCost(l string) int { return Estimate(l) + 1 }

func sum(costs []int) int {
	n := 0
	for _, c := range costs {
		n += c
	}
	return n
}

type fitter struct {
	lines []string
	cost  []int
	drop  []bool
	total int
}

func newFitter(lines []string) *fitter {
	f := &fitter{lines: lines, cost: make([]int, len(lines)), drop: make([]bool, len(lines))}
	for i, l := range lines {
		f.cost[i] = lineCost(l)
		f.total += f.cost[i]
	}
	return f
}

// elisionMarker says where lines were left out.
const elisionMarker = ContextPrefix + "… %d more lines (a larger maxTokens or a scope shows them)"

// markerCost is the most a marker line costs.
var markerCost = lineCost(fmt.Sprintf(elisionMarker, 99999))

func pureText(l string) bool {
	return Ref(l) == 0 && !isHeading(l) && !strings.Contains(l, "[:]<")
}

func (f *fitter) elideRuns(budget int) {
	type run struct{ start, end, tokens int }
	var runs []run
	start := -1
	end := func(i int) {
		if start >= 0 && i-start >= minRun {
			r := run{start: start, end: i}
			for j := start; j < i; j++ {
				r.tokens += f.cost[j]
			}
			runs = append(runs, r)
		}
		start = -1
	}
	for i, l := range f.lines {
		if pureText(l) {
			if start < 0 {
				start = i
			}
			continue
		}
		end(i)
	}
	end(len(f.lines))
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].tokens > runs[j].tokens })
	for _, r := range runs {
		if f.total <= budget {
			return
		}
		// Keep three lines at the head and one at the tail; drop a block from
		// the middle, growing it outwards.
		lo, hi := r.start+3, r.end-1
		f.total += markerCost
		for a, b := (lo+hi)/2, (lo+hi)/2; f.total > budget && (a > lo || b < hi); {
			if b < hi {
				f.drop[b], f.total = true, f.total-f.cost[b]
				b++
			}
			if f.total > budget && a > lo {
				a--
				f.drop[a], f.total = true, f.total-f.cost[a]
			}
		}
	}
}

// assemble returns the lines kept, with markers for those dropped, and their costs.
func (f *fitter) assemble() ([]string, []int) {
	var out []string
	var cost []int
	for i := 0; i < len(f.lines); i++ {
		if !f.drop[i] {
			out, cost = append(out, f.lines[i]), append(cost, f.cost[i])
			continue
		}
		j := i
		for j < len(f.lines) && f.drop[j] {
			j++
		}
		m := fmt.Sprintf(elisionMarker, j-i)
		out, cost = append(out, m), append(cost, lineCost(m))
		i = j - 1
	}
	return out, cost
}

// textFreeTail finds the latest point from which leaving out text (keeping
// elements and headings) makes the lines fit, and does so, marking the point.
func textFreeTail(lines []string, cost []int, budget int) ([]string, []int) {
	stripped := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case Ref(l) > 0 || isHeading(l):
			stripped[i] = l
		case strings.Contains(l, "[:]<") && !strings.HasPrefix(l, ContextPrefix+"…"):
			stripped[i] = strings.Join(elements(l), " ")
		}
	}
	marker := ContextPrefix + "… from here on text is left out, only elements are shown (a larger maxTokens or a scope shows it)"
	// suffix[i] is the cost of lines[i:] with text left out.
	strippedCost := make([]int, len(lines))
	suffix := make([]int, len(lines)+1)
	for i := len(lines) - 1; i >= 0; i-- {
		switch {
		case stripped[i] == "":
		case stripped[i] == lines[i]:
			strippedCost[i] = cost[i]
		default:
			strippedCost[i] = lineCost(stripped[i])
		}
		suffix[i] = suffix[i+1] + strippedCost[i]
	}
	if suffix[0] == sum(cost) {
		return lines, cost // no text to leave out
	}
	prefix := 0
	mc := lineCost(marker)
	best := -1
	for i := range lines {
		if prefix+mc+suffix[i] <= budget {
			best = i
		}
		prefix += cost[i]
	}
	if best < 0 {
		best = 0
	}
	out := append(lines[:best:best], marker)
	outCost := append(cost[:best:best], mc)
	for i, s := range stripped[best:] {
		if s != "" {
			out, outCost = append(out, s), append(outCost, strippedCost[best+i])
		}
	}
	return out, outCost
}

// cutTail keeps lines from the start while they fit and counts the rest.
func cutTail(lines []string, cost []int, budget int) []string {
	const reserve = 30 // for the closing line
	used := 0
	for i, c := range cost {
		if used+c > budget-reserve {
			elems, text := 0, 0
			for _, rest := range lines[i:] {
				if n := strings.Count(rest, "[:]<"); n > 0 {
					elems += n
				} else if !strings.HasPrefix(rest, ContextPrefix+"…") {
					text++
				}
			}
			return append(lines[:i:i], fmt.Sprintf(ContextPrefix+"… %d more elements and %d text lines: scope or scroll to see them, or pass a larger maxTokens", elems, text))
		}
		used += c
	}
	return lines
}
