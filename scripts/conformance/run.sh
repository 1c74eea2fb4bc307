#!/usr/bin/env bash
# Runs the MCP conformance suite (npm @modelcontextprotocol/conformance, server
# mode) against `cdpmcp serve --http`. The suite needs fs.globSync, which Node 20
# lacks; hooks.mjs gives it a stand-in. Results go to $OUT (default
# results/conformance). Usage: scripts/conformance/run.sh [bin/cdpmcp]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-$root/bin/cdpmcp}"
out="${OUT:-$root/results/conformance}"
work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

cp "$here"/*.mjs "$work"/
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund @modelcontextprotocol/conformance@0.1.16 glob@10 >/dev/null)

port=$((20000 + RANDOM % 20000))
"$bin" serve --http "127.0.0.1:$port" --headless 2>"$work/server.log" &
pid=$!
for _ in $(seq 100); do grep -q "serving MCP" "$work/server.log" && break; sleep 0.1; done

mkdir -p "$out"
cd "$work"
node --import ./register.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js \
  server --url "http://127.0.0.1:$port/mcp" -o "$out" >"$out/summary.txt" 2>&1 || true
sed -n '/=== SUMMARY ===/,$p' "$out/summary.txt"

# About two thirds of the scenarios call fixture tools (test_simple_text, …) or
# capabilities (resources, prompts, completions, logging) that only the suite's
# reference server has. The scenarios that apply to any server must pass.
status=0
for s in server-initialize ping tools-list server-sse-multiple-streams dns-rebinding-protection; do
  if ! grep -q "✓ $s:" "$out/summary.txt"; then echo "FAILED: $s" >&2; status=1; fi
done
exit $status
