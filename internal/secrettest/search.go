package secrettest

import "strings"

// Search finds every encoding of many secrets in one pass over a text (an
// Aho-Corasick automaton): what a test searching megabytes of answers and
// files for a table of secrets needs.
type Search struct {
	next []map[byte]int32
	fail []int32
	out  [][]found
}

// found is a hit and the length of the encoding that makes it.
type found struct {
	Hit
	n int
}

// Hit is a secret found, in one of its encodings.
type Hit struct {
	Secret, Encoding string
}

// NewSearch prepares the search for secrets (their cores, as Leaks).
func NewSearch(secrets []string) *Search {
	s := &Search{next: []map[byte]int32{{}}, fail: []int32{0}, out: [][]found{nil}}
	seen := map[string]bool{}
	for _, secret := range secrets {
		core := strings.TrimSpace(secret)
		for _, e := range Encodings {
			enc := e.Enc(core)
			if enc == "" || seen[secret+"\x00"+e.Name] {
				continue
			}
			seen[secret+"\x00"+e.Name] = true
			node := int32(0)
			for i := 0; i < len(enc); i++ {
				n, ok := s.next[node][enc[i]]
				if !ok {
					n = int32(len(s.next))
					s.next = append(s.next, map[byte]int32{})
					s.fail = append(s.fail, 0)
					s.out = append(s.out, nil)
					s.next[node][enc[i]] = n
				}
				node = n
			}
			s.out[node] = append(s.out[node], found{Hit{Secret: secret, Encoding: e.Name}, len(enc)})
		}
	}
	queue := []int32{}
	for _, n := range s.next[0] {
		queue = append(queue, n)
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for c, v := range s.next[u] {
			for f := s.fail[u]; ; f = s.fail[f] {
				if n, ok := s.next[f][c]; ok && n != v {
					s.fail[v] = n
					break
				}
				if f == 0 {
					break
				}
			}
			s.out[v] = append(s.out[v], s.out[s.fail[v]]...)
			queue = append(queue, v)
		}
	}
	return s
}

// Find returns what text holds, each secret and encoding once, with where
// the first of each ends. A short hit inside a random identifier (a target
// or frame id: a run of 16 hex digits or more) is chance, not a leak: "abcd"
// upper-cased is in one id of a few thousand.
func (s *Search) Find(text string) map[Hit]int {
	hits := map[Hit]int{}
	node := int32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		for {
			if n, ok := s.next[node][c]; ok {
				node = n
				break
			}
			if node == 0 {
				break
			}
			node = s.fail[node]
		}
		for _, h := range s.out[node] {
			if _, ok := hits[h.Hit]; !ok && !inRandomID(text, i+1-h.n, i+1) {
				hits[h.Hit] = i + 1
			}
		}
	}
	return hits
}

// inRandomID reports whether text[from:to], 8 bytes or fewer, lies inside
// a longer run of 16 hex digits or more.
func inRandomID(text string, from, to int) bool {
	if to-from > 8 {
		return false
	}
	for i := from; i < to; i++ {
		if !isHex(text[i]) {
			return false
		}
	}
	for from > 0 && isHex(text[from-1]) {
		from--
	}
	for to < len(text) && isHex(text[to]) {
		to++
	}
	return to-from >= 16
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
