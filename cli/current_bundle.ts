/**
 * Whether the bundle `deno task bundle` wrote (`dist/bundle/`) may be run
 * instead of the source. Deno spends 50–60 µs on each module it loads
 * however small, and a run loads about 270 of flowrun's; the bundle holds
 * the same code in a few dozen files, which starts a one-request run about
 * 15 ms sooner (README, Performance).
 *
 * The bundle is used only while it is exactly what the source would run:
 * `inputs.json` beside it lists every file it was made from (each module of
 * its graph, `deno.json`, `deno.lock`) with its size, modification time and
 * SHA-256 as they were before bundling began, and the Deno version that made
 * it. A file whose size and time are unchanged is taken as unchanged; one
 * whose time moved is read and hashed, so a file written again with the same
 * bytes (Deno rewrites `deno.lock` so; a `git checkout` there and back) does
 * not make the bundle stale. One file changed, added to the graph through an
 * edit, or missing, another Deno, no permission to read the files, or no
 * bundle at all: the source runs, as it did before the bundle existed. A
 * stale bundle is never run.
 *
 * @module
 */

/** The bundle's folder, from the project root. */
export const BUNDLE_DIR = "dist/bundle/";

/** What the bundle was made from, written last by `scripts/bundle.ts`. */
export interface BundleInputs {
  /** The Deno version that made it (`Deno.version.deno`). */
  deno: string;
  /** The module to import, from the bundle's folder. */
  entry: string;
  /** Each input file from the project root: size, modification time in ms, SHA-256 in hex. */
  files: [path: string, size: number, mtime: number, sha256: string][];
}

const ROOT = new URL("../", import.meta.url);

/**
 * The bundle's entry module when the bundle is current, else `undefined`.
 * `root` is the project root (this checkout unless told).
 *
 * @example
 * ```ts
 * import { currentBundle } from "./current_bundle.ts";
 * const none = new URL("file:///nowhere/");
 * if (await currentBundle(none) !== undefined) throw new Error();
 * ```
 */
export async function currentBundle(root: URL = ROOT): Promise<URL | undefined> {
  try {
    // Every input is under the root: one question, and never a prompt.
    if (Deno.permissions.querySync({ name: "read", path: root }).state !== "granted") return;
    const dir = new URL(BUNDLE_DIR, root);
    const inputs = JSON.parse(Deno.readTextFileSync(new URL("inputs.json", dir))) as BundleInputs;
    if (inputs.deno !== Deno.version.deno || !Array.isArray(inputs.files)) return;
    // About 430 files, 7 µs each: a path string each, not a URL to parse.
    const base = pathOf(root);
    for (const [path, size, mtime, sha256] of inputs.files) {
      const stat = Deno.statSync(base + path);
      if (stat.size !== size) return;
      if (stat.mtime?.getTime() !== mtime && await fileSha256(base + path) !== sha256) return;
    }
    return new URL(inputs.entry, dir);
  } catch {
    // No bundle, or one that cannot be read: the source runs.
    return undefined;
  }
}

/**
 * The SHA-256 of a file's bytes, in lower-case hex.
 *
 * @example
 * ```ts
 * import { fileSha256 } from "./current_bundle.ts";
 * const path = await Deno.makeTempFile();
 * if (await fileSha256(path) !== "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") {
 *   throw new Error();
 * }
 * ```
 */
export async function fileSha256(path: string | URL): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A directory URL as a path ending in a separator, on any system. */
function pathOf(dir: URL): string {
  const path = decodeURIComponent(dir.pathname);
  // file:///C:/x/ is C:/x/ on Windows, where Deno takes forward slashes too.
  return Deno.build.os === "windows" ? path.replace(/^\/([A-Za-z]:)/, "$1") : path;
}
