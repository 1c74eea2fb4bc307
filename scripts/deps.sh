#!/usr/bin/env bash
# What a make target needs: checked, and what is missing of it installed from
# Debian's packages with apt-get (as root, else through sudo; without either it
# stops and says what to install). What a target can do without is never
# installed: a note says what it would add.
#
#   scripts/deps.sh TARGET NEED... [--optional NEED...]
#
# TARGET names the make target in messages ("make run"). NEED is one of:
#   go              the Go toolchain (never installed: Debian's is too old)
#   browser         a browser cdpmcp starts: Chromium's headless shell,
#                   chromium, chromium-browser or google-chrome on PATH, or
#                   Chrome or Chromium where macOS installs them
#   chromium        Chromium itself: the tests drive it too (a kept profile
#                   and a headed browser are always the full Chromium)
#   headless-shell  Chromium's headless shell, which cdpmcp prefers headless
#   ffmpeg          job videos
#   postgresql      the job fleet's tests (they start a server of their own)
#   npm             packaging's tests (npm packages, MCP bundles)
#
# HEADLESS_SHELL is where Debian's chromium-headless-shell puts the shell.
set -euo pipefail

target=${1:?usage: scripts/deps.sh TARGET NEED... [--optional NEED...]}
shift
HEADLESS_SHELL=${HEADLESS_SHELL:-/usr/lib/chromium/chromium-headless-shell}

on_path() {
	local c
	for c in "$@"; do command -v "$c" >/dev/null 2>&1 && return 0; done
	return 1
}

# has NEED: whether this machine has it.
has() {
	case $1 in
	go) on_path "${GO:-go}" ;;
	headless-shell) [ -x "$HEADLESS_SHELL" ] || on_path chromium-headless-shell chrome-headless-shell headless_shell ;;
	browser)
		has headless-shell || on_path chromium chromium-browser google-chrome google-chrome-stable ||
			[ -d "/Applications/Google Chrome.app" ] || [ -d "/Applications/Chromium.app" ]
		;;
	chromium) on_path chromium ;;
	ffmpeg) on_path ffmpeg ;;
	postgresql) on_path initdb || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null ;;
	npm) on_path npm ;;
	*)
		echo "scripts/deps.sh: unknown need $1" >&2
		exit 2
		;;
	esac
}

# debian NEED: the Debian packages that bring it.
debian() {
	case $1 in
	browser | chromium) echo chromium ;;
	headless-shell) echo chromium-headless-shell ;;
	npm) echo nodejs npm ;;
	*) echo "$1" ;;
	esac
}

# what NEED: what it is for, in a message.
what() {
	case $1 in
	browser) echo "a browser (Chromium or Chrome), which cdpmcp drives" ;;
	chromium) echo "chromium (the tests drive it)" ;;
	headless-shell) echo "chromium-headless-shell (the headless browser cdpmcp prefers: half the CPU of a headless chromium)" ;;
	ffmpeg) echo "ffmpeg (job videos)" ;;
	postgresql) echo "PostgreSQL (the job fleet's tests start their own server)" ;;
	npm) echo "npm (packaging's tests: the npm packages and the MCP bundle)" ;;
	esac
}

# note NEED: what a missing optional need would add.
note() {
	case $1 in
	headless-shell) echo "$target: note: chromium-headless-shell is not installed, so cdpmcp runs its browser headless as a full Chromium (about twice the CPU); 'sudo apt-get install chromium-headless-shell' adds it" >&2 ;;
	ffmpeg) echo "$target: note: ffmpeg is not installed, so jobs record no video; 'sudo apt-get install ffmpeg' adds it" >&2 ;;
	*) echo "$target: note: $(what "$1") is not installed" >&2 ;;
	esac
}

missing=() optional=0
for need in "$@"; do
	if [ "$need" = --optional ]; then
		optional=1
		continue
	fi
	has "$need" && continue
	if [ $optional = 1 ]; then
		note "$need"
	elif [ "$need" = go ]; then
		echo "$target: Go is not installed; get Go 1.26 or newer (https://go.dev/dl/)" >&2
		exit 1
	else
		missing+=("$need")
	fi
done
[ ${#missing[@]} = 0 ] && exit 0

# Chromium comes with what it recommends (its fonts); the rest without.
packages=() browser=()
for need in "${missing[@]}"; do
	echo "$target: $(what "$need") is missing" >&2
	read -ra p <<<"$(debian "$need")"
	if [ "$need" = browser ] || [ "$need" = chromium ]; then browser=("${p[@]}"); else packages+=("${p[@]}"); fi
done
all="${browser[*]-} ${packages[*]-}"
all=$(echo $all)
if ! command -v apt-get >/dev/null 2>&1; then
	echo "$target: this machine has no apt-get: install $all yourself (cdpmcp's --browser-path names a browser anywhere)" >&2
	exit 1
fi
if [ "$(id -u)" = 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1; then
	sudo=sudo
else
	echo "$target: need root or sudo to run 'apt-get install -y $all'; install it yourself, or ask whoever runs this machine" >&2
	exit 1
fi
echo "$target: installing $all with apt-get" >&2
$sudo apt-get update
if [ ${#browser[@]} -gt 0 ]; then
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${browser[@]}"
fi
if [ ${#packages[@]} -gt 0 ]; then
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
fi
for need in "${missing[@]}"; do
	if ! has "$need"; then
		echo "$target: $(what "$need") is still missing after apt-get install $(debian "$need")" >&2
		exit 1
	fi
done
