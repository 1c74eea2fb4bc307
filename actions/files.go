package actions

import (
	"context"
	"fmt"
	"strings"
)

// Downloads lists the files the caller's pages downloaded.
var Downloads = define("downloads", "List the files this session's pages downloaded: name, size, type, page, saved path (actions also report their downloads).",
	ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, _ noArgs) (*Result, error) {
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		list := bc.Downloads()
		if len(list) == 0 {
			return &Result{Text: "no downloads"}, nil
		}
		var b strings.Builder
		for _, d := range list {
			fmt.Fprintf(&b, "%s %d B %s", d.Name, d.Size, d.MIME)
			if d.Page != "" {
				b.WriteString(" from " + d.Page)
			}
			switch d.State {
			case "completed":
				b.WriteString(" → " + d.Path)
			case "inProgress":
				fmt.Fprintf(&b, " (arriving: %d of %d B)", d.Size, d.Total)
			default:
				b.WriteString(" (" + d.State + ")")
			}
			b.WriteByte('\n')
		}
		return &Result{Text: strings.TrimSuffix(b.String(), "\n")}, nil
	}).inGroup("files")
