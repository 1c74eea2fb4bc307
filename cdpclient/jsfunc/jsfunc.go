// Package jsfunc reads page functions out of JavaScript files: each top-level
// "function name(" declaration is one function, its source running to the
// next declaration (less the comment block that introduces the next). With
// composes a page function with helpers in its scope, to send as the
// declaration of a Runtime.callFunctionOn or the body of an evaluation.
//
// cdpclient keeps the page model's functions in its js/*.js this way, and a
// feature package built on cdpclient (cdpclient/audit) keeps its own. It
// imports nothing of cdpmcp.
package jsfunc

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// Set maps a function name to its source text.
type Set map[string]string

var funcStart = regexp.MustCompile(`(?m)^function (\w+)\(`)

// Load reads the functions of every file in dir of fsys (an embed.FS). A
// directory that cannot be read is a programming error: it panics.
func Load(fsys fs.FS, dir string) Set {
	out := Set{}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			panic(err)
		}
		src := string(b)
		locs := funcStart.FindAllStringSubmatchIndex(src, -1)
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

// Func returns the source of a function. A missing name is a programming
// error: it panics.
func (s Set) Func(name string) string {
	src, ok := s[name]
	if !ok {
		panic(fmt.Sprintf("cdpclient: no embedded JS function %q", name))
	}
	return src
}

// With returns page function main with the named helper functions in its
// scope.
func (s Set) With(main string, helpers ...string) string {
	var b strings.Builder
	b.WriteString("function(...args) {\n")
	for _, h := range helpers {
		b.WriteString(s.Func(h))
		b.WriteString("\n")
	}
	b.WriteString("return (")
	b.WriteString(s.Func(main))
	b.WriteString(").apply(this, args);\n}")
	return b.String()
}

// Call is an expression that calls page function fn with args, each given
// as its JSON: "(fn)(arg1,arg2)", to evaluate in a world.
func Call(fn string, args ...any) (string, error) {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(fn)
	b.WriteString(")(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(",")
		}
		j, err := json.Marshal(a)
		if err != nil {
			return "", err
		}
		b.Write(j)
	}
	b.WriteString(")")
	return b.String(), nil
}
