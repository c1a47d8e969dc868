// Completes package-lock.json with the other platforms' optional binaries (biome, rollup,
// msgpackr-extract…) that the registry mirror of our build machines does not serve (it answers
// 404 for darwin/win32/musl builds), so `npm install` leaves them out and `npm ci` on a fresh
// clone rejects the lock as "not in sync". Each missing optional dependency gets an entry with
// the exact version its parent pins and the os/cpu/libc its name says; npm skips entries for
// other platforms and, on those platforms, fetches them by version from the public registry.
// Run after any change to the lock: `npm run lock`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "netbsd", "openbsd", "sunos", "win32", "aix", "openharmony"];
const CPU = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x", "mips64el"];

/** os/cpu/libc from a platform package's name, e.g. `cli-linux-arm64-musl` or `rollup-win32-x64-msvc`. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p)) ?? (parts.includes("gnueabihf") || parts.includes("musleabihf") ? "arm" : undefined);
  if (!os || !cpu) return null;
  const libc = os === "linux" ? (parts.some((p) => p.startsWith("musl")) ? "musl" : "glibc") : undefined;
  return { os: [os], cpu: [cpu], libc: libc ? [libc] : undefined };
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    // Resolved next to the parent, else hoisted to the top.
    const base = path === "" ? "" : `${path}/`;
    if (packages[`${base}node_modules/${dep}`] || packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    // Keys in the order npm writes them, so its next rewrite of the lock moves nothing.
    packages[`node_modules/${dep}`] = {
      version,
      cpu: platform.cpu,
      ...(pkg.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: platform.libc } : {}),
      license: pkg.license,
      optional: true,
      os: platform.os,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, "en")));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.error(`lock-platforms: ${added} optional platform package(s) added to package-lock.json`);
