#!/usr/bin/env node
// cdpmcp's launcher: npm installs one of the @cdpmcp/<os>-<cpu> packages (the
// optional dependency whose "os" and "cpu" match this machine); this finds its
// binary and runs it with the same arguments and the same stdin, stdout and
// stderr, so an MCP client talks to the binary itself. Nothing is downloaded.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
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
    const missing = `the package ${pkg}, which holds the binary for this machine, is not installed.`;
    const tarball = installedFrom();
    if (tarball) {
      // Installed from a file: npm looked for the platform package in the
      // registry, where a build of your own is not. Name both files.
      const version = require("../package.json").version;
      const platform = path.join(path.dirname(tarball), `cdpmcp-${pkg.split("/")[1]}-${version}.tgz`);
      fail([
        missing,
        `cdpmcp came from the file ${tarball}; npm looks for its platform package in the registry, where a build of your own is not.`,
        "Name both package files (make release-snapshot or make npm-packages writes them into dist/npm/):",
        `  npx -y --package=${platform} --package=${tarball} cdpmcp serve`,
      ]);
    }
    fail([
      missing,
      "npm leaves it out when optional dependencies are left out (--omit=optional, --no-optional)",
      "or when node_modules was copied from another platform. Reinstall cdpmcp on this machine",
      "with its optional dependencies, or run it with: npx -y cdpmcp serve",
    ]);
  }
}

// installedFrom returns the package file this package was installed from
// (npx --package=FILE, npm install FILE), as npm's record of node_modules
// says, or "" when it came from a registry or the record is not there.
function installedFrom() {
  const prefix = path.resolve(__dirname, "..", "..", "..");
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(prefix, "node_modules", ".package-lock.json"), "utf8"));
    const entry = (lock.packages || {})["node_modules/cdpmcp"] || {};
    const resolved = entry.resolved || "";
    return resolved.startsWith("file:") && resolved.endsWith(".tgz") ? path.resolve(prefix, resolved.slice(5)) : "";
  } catch {
    return "";
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
