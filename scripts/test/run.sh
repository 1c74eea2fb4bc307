#!/usr/bin/env bash
# The test runner behind `make test`: every package's tests in two lanes
# that run side by side. The race lane runs the packages given as arguments
# under -race; the plain lane takes the other packages from a queue, the
# slow ones first (TEST_FIRST, longest first), then the rest in small
# batches; once its race packages are done, the race lane takes from the
# same queue, so that both lanes end about together. Every package runs to
# its end even when one failed; then the packages that failed, by name, and
# a check that the run left nothing behind: no process of its own (a
# browser, chrome_crashpad_handler, PostgreSQL, a test server) and no
# temporary file.
#
# The run's processes are told apart from everyone else's by a marker: every
# test binary runs with CDPMCP_TEST_RUN=<run id> in its environment (which its
# children inherit) and TMPDIR=<run dir>/t (which browser profiles, test
# directories and data directories live under, so it shows in their command
# lines; go's own work files go there too, and go removes them).
#
#   TEST_FIRST="./cmd/cdpmcp ./jobs" scripts/test/run.sh ./cdpclient ./tools/... ./liveview/...
#
# Environment: GO (the go command), TEST_PKGS (the packages, ./...; those of
# them not named as race packages run without -race), TEST_FIRST (plain
# packages the queue starts with, in that order: the slowest), RACE_PLAIN
# (tests of race packages that run without -race instead, words
# PKG=REGEXP: the race lane skips them, and the queue runs go test -run
# REGEXP PKG right after TEST_FIRST; a REGEXP holds no space and no glob
# character, and names no test of another race package), TEST_BATCH
# (how many of the other plain packages one go test takes from the queue,
# 6), TEST_TIMEOUT (a package's limit, 20m), TEST_PARALLEL (tests run at
# once in a package, 4), TEST_P (packages run at once in each lane, 1),
# TEST_LOGS (a directory to keep each lane's whole go test -v log in),
# CDPMCP_TEST_SCALE (passed on: multiplies the bound of every wait in the
# tests), TEST_ANALYZE (a command that checks the code, such as make
# analyze: go vet and staticcheck; it runs beside the lanes under nice -n 19,
# so that it takes only the CPU the tests leave, at the run's own priority once
# the tests are done, and the run fails when it does).
set -uo pipefail
GO=${GO:-go}
timeout=${TEST_TIMEOUT:-20m}
parallel=${TEST_PARALLEL:-4}
# One package at a time in each lane: two test binaries, each with its
# browsers, are what two cores carry; four at once (go test's default -p on
# two cores, times two lanes) made healthy calls miss their deadlines.
packages=${TEST_P:-1}

run=$(mktemp -d "${TMPDIR:-/tmp}/cdpmcp-test.XXXXXX") || exit 1
# However the run ends, its directory goes; until it has started anything, an
# interrupt only ends it (interrupted, below, takes over then).
trap 'rm -rf "$run"' EXIT
trap 'exit 130' INT TERM
id=$(basename "$run")
mkdir -p "$run/t"

race=$($GO list "$@") || exit 1
[ -n "${TEST_PKGS:-}" ] && race=$(grep -xF -f <($GO list $TEST_PKGS) <<<"$race")
plain=$($GO list ${TEST_PKGS:-./...} | grep -vxF -f <(printf '%s\n' "$race"))

# The race packages' tests that run without -race (RACE_PLAIN): the race
# lane skips them; the queue runs them after TEST_FIRST's packages.
skip=
plainruns=
read -ra words <<<"${RACE_PLAIN:-}"
for w in "${words[@]}"; do
	p=$($GO list "${w%%=*}") || exit 1
	grep -qxF "$p" <<<"$race" || continue
	skip=${skip:+$skip|}${w#*=}
	plainruns+="-run ${w#*=} $p"$'\n'
done

# The queue of plain packages: one go test a line, TEST_FIRST's packages
# one each first, then the others TEST_BATCH at a time. take prints the next
# line and moves past it (nothing when the queue is empty); the lanes take
# in turn under a lock.
{
	# shellcheck disable=SC2086 # one package an argument
	first=$(for p in ${TEST_FIRST:-}; do $GO list "$p" 2>/dev/null; done | grep -xF -f <(printf '%s\n' "$plain"))
	printf '%s\n' $first
	printf '%s' "$plainruns"
	grep -vxF -f <(printf '%s\n' "$first") <<<"$plain" | xargs -r -n "${TEST_BATCH:-6}" echo
} | grep -v '^$' >"$run/queue"
echo 1 >"$run/queue.next"
take() {
	(
		flock 9
		local n
		n=$(cat "$run/queue.next")
		sed -n "${n}p" "$run/queue"
		echo $((n + 1)) >"$run/queue.next"
	) 9>"$run/queue.lock"
}

# gotest runs go test -v on some packages with the run's marker and TMPDIR
# (without go test's own vet: make lint has run all of go vet), for lane
# name. The test binaries are linked without a symbol table and DWARF
# (-s -w: stack traces and race reports read the runtime's own tables):
# linking the run's ~90 of them took a fifth less CPU. Its whole output goes on $run/<name>.log; the terminal gets it
# without the lines of tests that ran and passed, each line after the lane's
# name; its exit status goes on a line of $run/<name>.status.
gotest() {
	local name=$1
	shift
	echo "== $name: go test $*" >&2
	env TMPDIR="$run/t" GOTMPDIR= CDPMCP_TEST_RUN="$id" \
		$GO test -v -count=1 -vet=off -ldflags='-s -w' -timeout "$timeout" -p "$packages" -parallel "$parallel" "$@" 2>&1 |
		tee -a "$run/$name.log" |
		grep --line-buffered -Ev '^[[:space:]]*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|SKIP):)|^PASS$' |
		sed -u "s/^/$name| /"
	echo "${PIPESTATUS[0]}" >>"$run/$name.status"
}

# lane runs go test on its own packages (its first arguments, if any), then
# on what it takes from the queue until the queue is empty.
lane() {
	local name=$1 start=$SECONDS item
	shift
	[ $# -gt 0 ] && gotest "$name" "$@"
	while item=$(take) && [ -n "$item" ]; do
		# shellcheck disable=SC2086 # one package an argument
		gotest "$name" $item
	done
	echo "== $name: $((SECONDS - start)) s, go test exit status $(sort -u "$run/$name.status" 2>/dev/null | paste -sd,)" >&2
}

# leftovers lists the run's processes still alive: those with the marker in
# their environment or the run directory on their command line, and those in
# a process group one of them leads (a browser's renderers). grep reads its
# patterns from stdin, so that its own command line does not match.
leftovers() {
	local pids
	pids=$( {
		grep -lzx -f - /proc/[0-9]*/environ <<<"CDPMCP_TEST_RUN=$id"
		grep -lzF -f - /proc/[0-9]*/cmdline <<<"$run"
	} 2>/dev/null | cut -d/ -f3 | sort -un)
	[ -z "$pids" ] && return
	ps -e -o pid=,pgid= | awk -v leaders="$(echo $pids)" '
		BEGIN { n = split(leaders, l, " "); for (i = 1; i <= n; i++) lead[l[i]] = 1 }
		lead[$1] || lead[$2] { print $1 }' | sort -un
}

# Interrupted (Ctrl-C, which the lanes running in the background do not
# get): end the lanes, then what the run started (the EXIT trap removes its
# files).
interrupted() {
	trap '' INT TERM
	kill -TERM 0 2>/dev/null
	[ -n "$analyzing" ] && kill -TERM -- "-$analyzing" 2>/dev/null
	wait
	local left
	left=$(leftovers)
	# shellcheck disable=SC2086 # one PID an argument
	[ -n "$left" ] && kill -KILL $left 2>/dev/null
	echo "make test: interrupted" >&2
	exit 130
}
trap interrupted INT TERM

# TEST_ANALYZE runs beside the lanes at the lowest CPU priority, from when the
# plain lane's first test runs (or the lanes are done): by then the lane has
# compiled most of what go vet compiles, which it would otherwise compile
# beside the lane at the same time. It runs in a process group of its own
# (analyzing: its leader's PID) and with a TMPDIR of its own (a go command
# ended by SIGTERM leaves its work files), its whole output on
# $run/analyze.out. When the tests are done before it, what is left of it runs
# again at the run's own priority (analysis_done): a niced process would wait
# behind anything else the machine runs, and the build cache keeps what it
# did. Its lines then go to the terminal after "analyze| ", its exit status
# on $run/analyze.status.
analyzing=
analyze() {
	echo "== analyze: $TEST_ANALYZE (beside the tests, nice -n 19, once they run)" >&2
	mkdir -p "$run/a"
	TMPDIR="$run/a" setsid nice -n 19 bash -c '
		until grep -qs "^=== RUN" "$0/plain.log" || [ -e "$0/lanes.done" ]; do sleep 1; done
		exec bash -c "$1"' "$run" "$TEST_ANALYZE" >"$run/analyze.out" 2>&1 &
	analyzing=$!
}
analysis_done() {
	local start=$SECONDS status
	if kill -0 "$analyzing" 2>/dev/null; then
		echo "== analyze: not done when the tests were: again at normal priority, from the build cache" >&2
		kill -TERM -- "-$analyzing" 2>/dev/null
		wait "$analyzing" 2>/dev/null
		TMPDIR="$run/a" bash -c "$TEST_ANALYZE" >"$run/analyze.out" 2>&1
		status=$?
	else
		wait "$analyzing"
		status=$?
	fi
	sed 's/^/analyze| /' "$run/analyze.out"
	echo "$status" >"$run/analyze.status"
	echo "== analyze: exit status $status, $((SECONDS - start)) s after the tests" >&2
}

start=$SECONDS
[ -n "${TEST_ANALYZE:-}" ] && analyze
args=()
# shellcheck disable=SC2086 # package lists split on purpose
[ -n "$race" ] && args=(-race ${skip:+-skip "$skip"} $race)
lane race "${args[@]}" &
lanes=$!
lane plain &
wait $lanes $!
touch "$run/lanes.done"
[ -n "$analyzing" ] && analysis_done
status=0

# The slowest tests, for whoever wants the suite faster (a parallel test's
# time counts from when it was let run).
echo "make test: the slowest tests:" >&2
cat "$run"/*.log 2>/dev/null |
	sed -nE 's/^--- (PASS|FAIL): ([^ ]+) \(([0-9.]+)s\)$/\3 \2/p' |
	sort -rn | head -12 | awk '{ printf "  %7.1f s  %s\n", $1, $2 }' >&2

failed=$(cat "$run"/*.log 2>/dev/null | grep -E '^FAIL[[:space:]]' | awk '{print $2}' | sort -u)
if [ -n "$failed" ]; then
	echo "make test: these packages FAILED:" >&2
	printf '  %s\n' $failed >&2
	status=1
elif grep -qv '^0$' "$run"/race.status "$run"/plain.status 2>/dev/null; then
	echo "make test: go test failed (see above)" >&2
	status=1
fi
analysis=0
[ -n "${TEST_ANALYZE:-}" ] && analysis=$(cat "$run/analyze.status" 2>/dev/null || echo 1)
[ "$analysis" != 0 ] && status=1

# A browser a test closed may take a moment to be reaped.
for _ in $(seq 20); do
	[ -z "$(leftovers)" ] && break
	sleep 0.5
done
left=$(leftovers)
if [ -n "$left" ]; then
	echo "make test: the run left these processes running (now killed):" >&2
	for pid in $left; do
		echo "  $pid $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-200)" >&2
	done
	# shellcheck disable=SC2086 # one PID an argument
	kill -KILL $left 2>/dev/null
	status=1
fi
if [ -n "$(ls -A "$run/t")" ]; then
	echo "make test: the run left these temporary files (now removed):" >&2
	(cd "$run/t" && find . -mindepth 1 -maxdepth 2 | head -20 | sed 's/^/  /') >&2
	status=1
fi
# Last, so that the tail of the output says it: each test that failed, with
# the last lines it logged.
if [ $status != 0 ]; then
	details=$(cat "$run"/*.log 2>/dev/null | awk -f "$(dirname "$0")/failures.awk")
	[ -n "$details" ] && printf 'make test: these tests FAILED (their last lines):\n%s\n' "$details" >&2
	if [ "$analysis" != 0 ]; then
		echo "make test: $TEST_ANALYZE FAILED (exit status $analysis; its last lines):" >&2
		tail -40 "$run/analyze.out" 2>/dev/null | sed 's/^/  /' >&2
	fi
fi
if [ -n "${TEST_LOGS:-}" ]; then
	mkdir -p "$TEST_LOGS" && cp "$run"/*.log "$TEST_LOGS"/ && { [ ! -f "$run/analyze.out" ] || cp "$run/analyze.out" "$TEST_LOGS"/; }
fi
echo "make test: $((SECONDS - start)) s, $([ $status = 0 ] && echo passed || echo FAILED)" >&2
exit $status
