package secrettest

import "strings"

// Search finds every encoding of many secrets in one pass over a text (an
// Aho-Corasick automaton): what a test searching megabytes of answers and
// files for a table of secrets needs.
type Search struct {
	next []map[byte]int32
	fail []int32
	out  [][]Hit
}

// Hit is a secret found, in one of its encodings.
type Hit struct {
	Secret, Encoding string
}

// NewSearch prepares the search for secrets (their cores, as Leaks).
func NewSearch(secrets []string) *Search {
	s := &Search{next: []map[byte]int32{{}}, fail: []int32{0}, out: [][]Hit{nil}}
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
			s.out[node] = append(s.out[node], Hit{Secret: secret, Encoding: e.Name})
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
// the first of each ends.
func (s *Search) Find(text string) map[Hit]int {
	found := map[Hit]int{}
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
			if _, ok := found[h]; !ok {
				found[h] = i + 1
			}
		}
	}
	return found
}
