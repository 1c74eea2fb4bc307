package snapshot

import (
	"regexp"
	"strings"
	"unicode"
)

// Reading measures how much of an article a text carries, the way the reading
// benchmark and the corpus tests count it: the share of the article's distinct
// words of three or more letters that the text contains, and the share of the
// text's words that are not in the article.
type Reading struct {
	// Recall is the share of the article's distinct words found in the text.
	Recall float64
	// Outside is the share of the text's distinct words the article lacks.
	Outside float64
	// Missing lists up to 20 article words the text lacks, for messages.
	Missing []string
}

// markup matches what a snapshot line or Markdown adds around text: markers,
// tag names, attribute names and link addresses (which are not words a person
// reads).
var markup = regexp.MustCompile(`\d+\[:\]|_\[:\]|</?[a-z][\w-]*|\bhref=(?:"[^"]*"|[^\s>]+)|\b[a-z-]+=|\]\([^)\s]*(?:\s+"[^"]*")?\)`)

// MeasureReading compares text (a snapshot, Markdown or any rendering of a page)
// with the article's text; link addresses do not count. Words are lower-cased runs of letters; in scripts written
// without spaces (Chinese, Japanese, Thai) a run counts as found when it occurs
// in the text's letters with everything else removed.
func MeasureReading(article, text string) Reading {
	text = markup.ReplaceAllString(text, " ")
	want := words(article)
	have := words(text)
	var dense string // the text's letters only, for unspaced scripts
	found, missing := 0, []string(nil)
	for w := range want {
		ok := have[w]
		if !ok && unspaced(w) {
			if dense == "" {
				dense = letters(text)
			}
			ok = strings.Contains(dense, w)
		}
		if ok {
			found++
		} else if len(missing) < 20 {
			missing = append(missing, w)
		}
	}
	outside := 0
	for w := range have {
		if !want[w] {
			outside++
		}
	}
	r := Reading{Recall: 1, Missing: missing}
	if len(want) > 0 {
		r.Recall = float64(found) / float64(len(want))
	}
	if len(have) > 0 {
		r.Outside = float64(outside) / float64(len(have))
	}
	return r
}

// words returns the distinct lower-cased letter runs of three or more letters.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for w := range strings.FieldsFuncSeq(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) }) {
		if len([]rune(w)) >= 3 {
			out[w] = true
		}
	}
	return out
}

func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// unspaced reports whether w is written in a script that puts no spaces
// between words.
func unspaced(w string) bool {
	for _, r := range w {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Hangul) {
			return true
		}
	}
	return false
}
