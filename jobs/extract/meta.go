package extract

import (
	"cmp"
	"slices"
	"strings"
)

// meta finds a field in the page's meta tags (source "meta"), and a title,
// headline or name in its main heading ("heading") or else its document
// title ("title"). Of several tags that match, the first in a fixed order
// wins, so that the same page always gives the same answer: by the field's
// labels in their order, then by metaRank.
func (f *filler) meta(keys []string) (value, source string, ok bool) {
	var names []string
	for k, v := range f.facts.Meta {
		if k != "h1" && v != "" {
			names = append(names, k)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(metaRank(a), metaRank(b)), strings.Compare(a, b)) })
	for _, key := range keys {
		for _, k := range names {
			last := k[strings.LastIndexByte(k, ':')+1:]
			if norm(k) == key || norm(last) == key {
				return f.facts.Meta[k], "meta", true
			}
		}
	}
	for _, k := range []string{"title", "headline", "name"} {
		if slices.Contains(keys, k) {
			if h := f.facts.Meta["h1"]; h != "" {
				return h, "heading", true
			}
			if f.facts.Title != "" {
				return f.facts.Title, "title", true
			}
		}
	}
	return "", "", false
}

// metaRank orders the meta tags that state the same thing: the one named
// as it (description), then Open Graph's (og:description), then Twitter's,
// then those of other vocabularies (dc:description), by name.
func metaRank(name string) int {
	switch {
	case !strings.Contains(name, ":"):
		return 0
	case strings.HasPrefix(name, "og:"):
		return 1
	case strings.HasPrefix(name, "twitter:"):
		return 2
	}
	return 3
}
