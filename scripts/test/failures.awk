# failures.awk reads go test -v logs and prints, for each test that failed,
# its package, its name and time, and the last lines it logged (file:line:
# message), cut short, so that the tail of a failed run's output says what
# failed and why; and the first line of a panic or a timeout. Parallel
# tests' lines are told apart by go test's "=== NAME" (RUN, CONT) headers.
function parent(t,   j) {
	for (j = 1; j <= n; j++) if (index(order[j], t "/") == 1) return 1
	return 0
}
function short(s) { s = substr(s, 1, 240); return length(s) == 240 ? s "…" : s }
/^=== (RUN|CONT|NAME) / { cur = $3; next }
/^ *--- FAIL: / {
	name = $3
	if (!(name in failed)) { order[++n] = name; failed[name] = $4 }
	pending[name] = 1
	next
}
/^    *[^ ].*\.go:[0-9]+: / && cur != "" {
	line = $0
	sub(/^ +/, "", line)
	k = ++count[cur]
	said[cur, k] = short(line)
	next
}
/^panic: / { panics[++np] = short($0); getpanic = 3; next }
getpanic > 0 && /^\t+[A-Z]/ { line = $0; gsub(/\t/, " ", line); panics[np] = panics[np] " ·" line; getpanic--; next }
/^(FAIL|ok)[ \t]+[^ \t]+/ {
	pkg = $2
	sub(/^github\.com\/cdpmcp\/cdpmcp\//, "", pkg)
	for (t in pending) pkgof[t] = pkg
	delete pending
	for (i = 1; i <= np; i++) panicpkg[i] = panicpkg[i] == "" ? pkg : panicpkg[i]
	cur = ""
	next
}
END {
	for (i = 1; i <= n; i++) {
		t = order[i]
		# A parent whose subtests failed says nothing of its own.
		if (count[t] == 0 && parent(t)) continue
		printf "  %s %s %s\n", pkgof[t], t, failed[t]
		from = count[t] > 3 ? count[t] - 2 : 1
		for (k = from; k <= count[t]; k++) printf "      %s\n", said[t, k]
	}
	for (i = 1; i <= np; i++) printf "  %s %s\n", panicpkg[i], panics[i]
}
