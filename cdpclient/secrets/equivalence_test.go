package secrets

import (
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/secrettest"
)

// A matcher that searches for its needles all at once (the automata of
// scan.go) finds exactly what the search for them one by one finds, the
// way every matcher searched before: the same spans, so the same redaction
// byte for byte. Checked with the secrets table known (typed key by key,
// filled, added, entered into pages that showed them already) and with a
// few values, on parts of the corpus's pages with the table's secrets, the
// starts of those typed, near misses and cuts planted in every encoding.
func TestAutomatonFindsWhatNeedleByNeedleFinds(t *testing.T) {
	t.Parallel()
	table := secrettest.Secrets()
	var many []known
	for i, s := range table {
		e := entry{}
		switch i % 4 {
		case 0:
			e.plain = true
		case 1:
			e.typed = true
		case 2:
			e.typed, e.old = true, []string{"Password: " + s + " is wrong", "hint " + s}
		case 3:
			e.old = []string{`<input value="` + s + `">`}
		}
		many = append(many, known{s, e})
	}
	few := []known{{"hunter2~Pass", entry{plain: true}}, {table[5], entry{typed: true}}}
	// Values inside others, ending where others end, starting where
	// others start, found where a longer one is under way.
	var nested []known
	for _, v := range nestedValues {
		nested = append(nested, known{v, entry{plain: true}})
	}
	texts := equivalenceTexts(t)
	for _, c := range []struct {
		name    string
		entries []known
	}{{"the table", many}, {"a few values", few}, {"values inside others", nested}} {
		fast, slow := newMatcher(c.entries), newMatcher(c.entries)
		fast.perNeedle, slow.perNeedle = false, true
		found := 0
		for _, text := range texts {
			got, want := fast.find([]byte(text)), slow.find([]byte(text))
			if !slices.Equal(got, want) {
				t.Errorf("%s: in %.200q the automaton found %v, needle by needle %v", c.name, text, got, want)
			}
			if len(want) > 0 {
				found++
			}
		}
		// The planted secrets are found: the texts test the finding, not
		// only the finding of nothing.
		if c.name != "a few values" && found < len(texts)/20 {
			t.Errorf("%s: a secret was found in %d texts of %d", c.name, found, len(texts))
		}
		t.Logf("%s: a secret was found in %d texts of %d", c.name, found, len(texts))
	}
}

// nestedValues are values inside each other.
var nestedValues = []string{"secret", "my-secret-longer", "secret-longer", "cret-longer-still", "longer"}

// equivalenceTexts are parts of the corpus's pages (HTML and reading text),
// as they are and with a secret of the table planted in them: whole in each
// encoding, its start as typed key by key, one character off, beside a
// page's own words, and at a cut.
var equivalenceTexts = func() func(t *testing.T) []string {
	var once sync.Once
	var texts []string
	return func(t *testing.T) []string {
		once.Do(func() { texts = makeEquivalenceTexts(t) })
		if len(texts) == 0 {
			t.Fatal("no texts")
		}
		return texts
	}
}()

func makeEquivalenceTexts(t *testing.T) []string {
	files, err := filepath.Glob("../../fixtures/corpus/*.gz")
	if err != nil || len(files) == 0 {
		t.Fatalf("the corpus: %v (%d files)", err, len(files))
	}
	slices.Sort(files)
	var pages []string
	for _, name := range files {
		pages = append(pages, readGzip(t, name))
	}
	rng := rand.New(rand.NewPCG(47, 2))
	part := func(n int) string {
		p := pages[rng.IntN(len(pages))]
		at := rng.IntN(max(1, len(p)-n))
		return p[at:min(len(p), at+n)]
	}
	var out []string
	for _, p := range pages {
		out = append(out, p[:min(len(p), 1500)], part(1500))
	}
	for i, e := range secrettest.Encodings {
		v := []string{"my-secret-lon", "cret-longer-stil", "xsecret-longe", "x" + strings.Join(nestedValues, "~")}[i%4]
		out = append(out, part(300)+e.Enc(v)+part(300))
	}
	for i, s := range secrettest.Secrets() {
		for j, e := range secrettest.Encodings {
			if (i+j)%7 != 0 {
				continue
			}
			out = append(out, part(300)+e.Enc(s)+part(300))
		}
		runes := []rune(s)
		start := string(runes[:(2*len(runes)+2)/3])
		off := slices.Clone(runes)
		off[len(off)/2] = 'Q'
		out = append(out,
			part(300)+"/strength?pw="+secrettest.FormEncode(start)+"&x=1 "+part(300),
			part(300)+string(off)+part(300),
			"Password: "+s+" is wrong\nhint "+s+"\n"+`<input value="`+s+`">`+part(300),
			`{"text":"`+strings.ReplaceAll(part(200), `"`, "")+s+"…"+`"}`)
		text := part(200) + "pw=" + secrettest.FormEncode(s) + "&next=" + part(200)
		cut := Cut(text, strings.Index(text, "pw=")+3+len(s)/2)
		out = append(out, text[:cut]+"…", "…"+text[cut:], `{"t":`+strconvQuote(text[:cut]+"\n[truncated: 9 more bytes]")+`}`)
	}
	return out
}

// readGzip reads a gzipped file (the corpus's pages and texts) whole.
func readGzip(t testing.TB, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
