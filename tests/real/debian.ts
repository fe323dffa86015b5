/**
 * A real server that comes from a Debian package (Syncthing, Transmission): installed when
 * missing and the tests run as root, else the reason its tests are ignored, or fail under CI.
 *
 * @module
 */
import { exists } from "../support/fs.ts";

/**
 * "" when `binary` exists (after installing `pkg` if it did not), else a test name's suffix
 * saying why the tests are ignored; with `CI` set, a missing server throws instead.
 *
 * @example
 * ```ts
 * import { debianMissing } from "./debian.ts";
 * if (debianMissing(Deno.execPath(), "deno") !== "") throw new Error();
 * ```
 */
export function debianMissing(binary: string, pkg: string): string {
  if (exists(binary)) return "";
  const installed = aptInstall(pkg);
  if (installed === "" && exists(binary)) return "";
  const why = `${binary} is missing (Debian's ${pkg}): ${installed}`;
  if (Deno.env.get("CI")) throw new Error(why);
  return ` [ignored: ${why.slice(0, 200)}; with CI set this fails]`;
}

/**
 * {@linkcode debianMissing} of each package (in order) for the file it installs: "" when all
 * are there, else the first reason.
 *
 * @example
 * ```ts
 * import { debianPackagesMissing } from "./debian.ts";
 * if (debianPackagesMissing({ deno: Deno.execPath() }) !== "") throw new Error();
 * ```
 */
export function debianPackagesMissing(files: Record<string, string>): string {
  for (const [pkg, file] of Object.entries(files)) {
    const why = debianMissing(file, pkg);
    if (why !== "") return why;
  }
  return "";
}

/** `apt-get install` as root, bounded by a 5-minute kill: "" or why it failed. */
function aptInstall(name: string): string {
  if (Deno.uid() !== 0) return "not root, so apt-get cannot install it";
  try {
    const out = new Deno.Command("timeout", {
      args: ["300", "apt-get", "install", "-y", "--no-install-recommends", name],
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    return out.success ? "" : new TextDecoder().decode(out.stderr).trim().slice(-300);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
