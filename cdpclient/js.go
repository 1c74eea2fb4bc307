package cdpclient

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
)

//go:embed js/*.js
var jsFiles embed.FS

// jsFuncs maps a function name to its source text, taken from the top-level
// "function name(" declarations of the embedded js/*.js files.
var jsFuncs = loadJSFuncs()

var jsFuncStart = regexp.MustCompile(`(?m)^function (\w+)\(`)

func loadJSFuncs() map[string]string {
	out := map[string]string{}
	entries, err := jsFiles.ReadDir("js")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := jsFiles.ReadFile("js/" + e.Name())
		if err != nil {
			panic(err)
		}
		src := string(b)
		locs := jsFuncStart.FindAllStringSubmatchIndex(src, -1)
		for i, loc := range locs {
			end := len(src)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			body := src[loc[0]:end]
			// Drop the comment block that introduces the next function.
			if j := strings.LastIndex(body, "\n}\n"); j >= 0 {
				body = body[:j+2]
			}
			out[src[loc[2]:loc[3]]] = strings.TrimSpace(body)
		}
	}
	return out
}

// jsFunc returns the source of an embedded page function. A missing name is a
// programming error.
func jsFunc(name string) string {
	src, ok := jsFuncs[name]
	if !ok {
		panic(fmt.Sprintf("cdpclient: no embedded JS function %q", name))
	}
	return src
}

// jsWith returns page function main with the named helper functions in its scope.
func jsWith(main string, helpers ...string) string {
	var b strings.Builder
	b.WriteString("function(...args) {\n")
	for _, h := range helpers {
		b.WriteString(jsFunc(h))
		b.WriteString("\n")
	}
	b.WriteString("return (")
	b.WriteString(jsFunc(main))
	b.WriteString(").apply(this, args);\n}")
	return b.String()
}
