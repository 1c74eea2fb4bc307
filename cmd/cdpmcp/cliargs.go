package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// hoistFlags moves the flags a user wrote after a command's arguments
// (`cdpmcp call getTitle --headless`) before them, where the flag parser reads
// them: urfave/cli stops at the first argument. A flag's value goes with it,
// unless the flag is a boolean or written as --flag=value; "--" ends the
// flags, and what follows it stays an argument.
func hoistFlags(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	// args[0] is the program; the command is the first argument that is no flag.
	i := 1 + slices.IndexFunc(args[1:], func(a string) bool { return !strings.HasPrefix(a, "-") })
	if i == 0 {
		return args, nil
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args, nil
	}
	// A subcommand (`cdpmcp jobs submit`) takes the flags written after it.
	for i+1 < len(args) {
		sub := subcommand(cmd, args[i+1])
		if sub == nil {
			break
		}
		i, cmd = i+1, sub
	}
	head := slices.Clone(args[:i+1])
	var flags, rest []string
	tail := args[i+1:]
	for k := 0; k < len(tail); k++ {
		a := tail[k]
		switch {
		case a == "--":
			rest = append(rest, tail[k:]...)
			k = len(tail)
		case !strings.HasPrefix(a, "-") || a == "-":
			rest = append(rest, a)
		default:
			flags = append(flags, a)
			if takesValue(cmd, a) {
				if k+1 == len(tail) {
					return nil, missingValue("cdpmcp "+cmd.Name, strings.TrimLeft(a, "-"))
				}
				k++
				flags = append(flags, tail[k])
			}
		}
	}
	return append(append(head, flags...), rest...), nil
}

// subcommand returns cmd's subcommand called name, or nil.
func subcommand(cmd *cli.Command, name string) *cli.Command {
	for _, sub := range cmd.Subcommands {
		if sub.HasName(name) {
			return sub
		}
	}
	return nil
}

// takesValue reports whether the flag written as a (-name or --name, without
// =value) reads the next argument as its value.
func takesValue(cmd *cli.Command, a string) bool {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			df, ok := f.(cli.DocGenerationFlag)
			return ok && df.TakesValue()
		}
	}
	return false // an unknown flag: the parser will say so
}

// usageError turns the flag parser's complaint into one line that names the
// flag and what to do, instead of the complaint followed by every flag.
func usageError(c *cli.Context, err error, _ bool) error {
	name, flags := "cdpmcp", c.App.Flags
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		name, flags = "cdpmcp "+c.Command.Name, c.Command.Flags
	}
	msg := err.Error()
	help := fmt.Sprintf("%s --help lists the flags", name)
	if f, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		f = strings.TrimLeft(f, "-")
		var names []string
		for _, fl := range flags {
			names = append(names, fl.Names()...)
		}
		if name == "cdpmcp" { // a command's flag before the command?
			for _, cmd := range c.App.Commands {
				for _, fl := range cmd.Flags {
					names = append(names, fl.Names()...)
				}
			}
			if near := nearest(f, names); near != "" && len(commandsWithFlag(c.App, near)) > 0 {
				cmds := commandsWithFlag(c.App, near)
				return fmt.Errorf("cdpmcp: --%s is a flag of %s: put it after the command, e.g. cdpmcp %s --%s", near, strings.Join(cmds, " and "), cmds[0], near)
			}
		}
		if cmds := commandsWithFlag(c.App, f); name != "cdpmcp" && len(cmds) > 0 {
			return fmt.Errorf("%s: --%s is a flag of %s, not of %s%s (%s)", name, f, strings.Join(cmds, " and "), c.Command.Name, elsewhere[c.Command.Name+" --"+f], help)
		}
		if near := nearest(f, names); near != "" {
			return fmt.Errorf("%s: unknown flag --%s; did you mean --%s? (%s)", name, f, near, help)
		}
		return fmt.Errorf("%s: unknown flag --%s (%s)", name, f, help)
	}
	if f, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return missingValue(name, strings.TrimLeft(f, "-"))
	}
	if m := invalidValueRE.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s: --%s %q: %s (%s)", name, m[2], m[1], valueHint(flags, m[2]), help)
	}
	if m := envValueRE.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s: %s %q (--%s): %s (%s)", name, m[2], m[1], m[3], valueHint(flags, m[3]), help)
	}
	return fmt.Errorf("%s: %s (%s)", name, strings.Replace(msg, "for flag -", "for --", 1), help)
}

// elsewhere says what a command does instead of another's flag, where that
// is not plain.
var elsewhere = map[string]string{
	"call --data-dir": ": call runs one tool and keeps no jobs; cdpmcp jobs --data-dir DIR lists a data dir's jobs, and cdpmcp serve --data-dir DIR runs them",
}

// invalidValueRE reads the flag parser's complaint about a value: a boolean's
// ("invalid boolean value") or another's.
var invalidValueRE = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+(\S+): `)

// envValueRE reads its complaint about a variable's value.
var envValueRE = regexp.MustCompile(`^could not parse "(.*)" as \S+ value from environment variable "(\w+)" for flag (\S+): `)

// valueHint says what a flag's value must look like.
func valueHint(flags []cli.Flag, name string) string {
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.DurationFlag:
			return "give a duration such as 30s, 2m or 1h"
		case *cli.IntFlag, *cli.Int64Flag:
			return "give a whole number"
		case *cli.BoolFlag:
			return "give true or false"
		}
	}
	return "not a valid value"
}

func missingValue(command, flag string) error {
	return fmt.Errorf("%s: --%s needs a value, e.g. --%s=VALUE (%s --help lists the flags)", command, flag, flag, command)
}

// commandsWithFlag lists the commands that take the flag name.
func commandsWithFlag(app *cli.App, name string) []string {
	var out []string
	for _, cmd := range app.Commands {
		for _, f := range cmd.Flags {
			if slices.Contains(f.Names(), name) {
				out = append(out, cmd.Name)
				break
			}
		}
	}
	return out
}

// rootAction runs for `cdpmcp` without a command (the help) or with one it
// does not know (one line naming the nearest).
func rootAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	command := c.Args().First()
	var names []string
	for _, cmd := range c.App.Commands {
		names = append(names, cmd.Name)
	}
	if near := nearest(command, names); near != "" {
		return fmt.Errorf("cdpmcp: no command %q; did you mean %s? (commands: %s)", command, near, strings.Join(names, ", "))
	}
	return fmt.Errorf("cdpmcp: no command %q (commands: %s)", command, strings.Join(names, ", "))
}

// nearest returns the candidate closest to word in edit distance, when it is
// close enough to be what was meant, else "".
func nearest(word string, candidates []string) string {
	best, bestD := "", len(word)/2+2
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
