package secrets

// An automaton finds every place where any of a set of byte strings (its
// words) occurs in a text, overlapping ones too, in one pass over the text
// whatever their number (Aho-Corasick, as a table of states by byte class):
// what lets a matcher that knows many secrets search as fast as one that
// knows a few.
type automaton struct {
	// class maps a byte to its column of next: 0 for the bytes no word
	// holds, so the table is as wide as the words' alphabet only.
	class [256]uint16
	width int
	next  []int32 // next[state*width+class] is the state after the byte
	// word is the word that ends at a state (-1: none); more is the state
	// of the longest shorter word ending there too (-1: none); emits says
	// whether a word ends at a state at all.
	word, more []int32
	emits      []bool
	lens       []int // each word's length
}

// newAutomaton makes the automaton of words (distinct, none empty). With
// fold, ASCII capitals in the text read as the small letters of the words
// (all in lower case).
func newAutomaton(words [][]byte, fold bool) *automaton {
	a := &automaton{lens: make([]int, len(words))}
	for _, w := range words {
		for _, c := range w {
			if a.class[c] == 0 {
				a.width++
				a.class[c] = uint16(a.width)
			}
		}
	}
	a.width++ // column 0: bytes in no word
	if fold {
		for c := 'A'; c <= 'Z'; c++ {
			a.class[c] = a.class[c+'a'-'A']
		}
	}
	a.addState()
	for i, w := range words {
		a.lens[i] = len(w)
		s := int32(0)
		for _, c := range w {
			at := int(s)*a.width + int(a.class[c])
			if a.next[at] <= 0 { // 0: the root, which no byte leads back to in the trie
				a.next[at] = a.addState()
			}
			s = a.next[at]
		}
		a.word[s] = int32(i)
	}
	a.link()
	return a
}

func (a *automaton) addState() int32 {
	s := int32(len(a.word))
	for range a.width {
		a.next = append(a.next, 0)
	}
	a.word = append(a.word, -1)
	a.more = append(a.more, -1)
	a.emits = append(a.emits, false)
	return s
}

// link turns the trie into the automaton, breadth first: a byte no word
// goes on with leads where it leads from the longest suffix of what was
// read that starts a word (its fail state).
func (a *automaton) link() {
	fail := make([]int32, len(a.word))
	queue := make([]int32, 0, len(a.word))
	for c := range a.width {
		if s := a.next[c]; s > 0 {
			queue = append(queue, s) // fail: the root
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		f := fail[u]
		if a.word[f] >= 0 {
			a.more[u] = f
		} else {
			a.more[u] = a.more[f]
		}
		a.emits[u] = a.word[u] >= 0 || a.more[u] >= 0
		row, frow := int(u)*a.width, int(f)*a.width
		for c := range a.width {
			if s := a.next[row+c]; s > 0 {
				fail[s] = a.next[frow+c]
				queue = append(queue, s)
			} else {
				a.next[row+c] = a.next[frow+c]
			}
		}
	}
}

// scan calls hit with each word found in text and the index of the byte
// after it, in the order they end (the longer first of those ending at one
// byte).
func (a *automaton) scan(text []byte, hit func(word int, end int)) {
	s := int32(0)
	for i, c := range text {
		s = a.next[int(s)*a.width+int(a.class[c])]
		if !a.emits[s] {
			continue
		}
		for x := s; x >= 0; x = a.more[x] {
			if w := a.word[x]; w >= 0 {
				hit(int(w), i+1)
			}
		}
	}
}

// any reports whether text holds a word.
func (a *automaton) any(text []byte) bool {
	s := int32(0)
	for _, c := range text {
		s = a.next[int(s)*a.width+int(a.class[c])]
		if a.emits[s] {
			return true
		}
	}
	return false
}
