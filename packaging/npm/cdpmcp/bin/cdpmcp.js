#!/usr/bin/env node
// cdpmcp's launcher: npm installs one of the @cdpmcp/<os>-<cpu> packages (the
// optional dependency whose "os" and "cpu" match this machine); this finds its
// binary and runs it with the same arguments and the same stdin, stdout and
// stderr, so an MCP client talks to the binary itself. Nothing is downloaded.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

// The platforms with a package, by Node's process.platform and process.arch.
const PLATFORMS = {
  "linux x64": "@cdpmcp/linux-x64",
  "linux arm64": "@cdpmcp/linux-arm64",
  "darwin x64": "@cdpmcp/darwin-x64",
  "darwin arm64": "@cdpmcp/darwin-arm64",
  "win32 x64": "@cdpmcp/win32-x64",
  "win32 arm64": "@cdpmcp/win32-arm64",
};

function fail(lines) {
  process.stderr.write(lines.map((l) => "cdpmcp: " + l).join("\n") + "\n");
  process.exit(1);
}

function binaryPath() {
  const key = `${process.platform} ${process.arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg) {
    fail([
      `there is no prebuilt binary for ${process.platform}/${process.arch}.`,
      `Prebuilt: ${Object.keys(PLATFORMS).map((k) => k.replace(" ", "/")).join(", ")}.`,
      "Build it from source with Go 1.26 or newer:",
      "  go install github.com/cdpmcp/cdpmcp/cmd/cdpmcp@latest",
    ]);
  }
  const exe = process.platform === "win32" ? "cdpmcp.exe" : "cdpmcp";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    fail([
      `the package ${pkg}, which holds the binary for this machine, is not installed.`,
      "npm skips it when optional dependencies are left out (--omit=optional, --no-optional)",
      "or when node_modules was copied from another platform. Reinstall cdpmcp on this machine:",
      "  npm install cdpmcp    (or run it with: npx -y cdpmcp serve)",
    ]);
  }
}

const bin = binaryPath();
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

// A signal for the launcher is meant for the server: pass it on and let the
// server shut its browser down; the launcher ends when the server does. On
// Windows the console's Ctrl-C reaches the server itself, and kill() would
// end it at once, leaving its browser behind: there the launcher only waits.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (process.platform !== "win32" && child.exitCode === null && child.signalCode === null) child.kill(sig);
  });
}

child.on("error", (err) => {
  fail([`could not run ${path.basename(bin)} at ${bin}: ${err.message}`]);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // End the way the server ended, so the caller sees the same signal.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
