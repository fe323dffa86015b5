/**
 * Paths as reports show them and as writes place files beside them. Deno API
 * family: `Deno.cwd` (with `Deno.build.os` for the separator).
 *
 * @module
 */

/**
 * Joins with `/`, dropping `./` and duplicate separators.
 *
 * @example
 * ```ts
 * import { join } from "./paths.ts";
 * if (join("./flows/", "a.yaml") !== "flows/a.yaml") throw new Error();
 * ```
 */
export function join(...parts: string[]): string {
  return parts.join("/").replace(/\/+/g, "/").replace(/^(\.\/)+/, "");
}

/**
 * Turns a path into the form reports use: relative to the working directory
 * when inside it, `/`-separated.
 *
 * @example
 * ```ts
 * import { displayPath } from "./paths.ts";
 * if (displayPath(`${Deno.cwd()}/flows/a.yaml`) !== "flows/a.yaml") throw new Error();
 * if (displayPath("./flows//a.yaml") !== "flows/a.yaml") throw new Error();
 * ```
 */
export function displayPath(path: string): string {
  // Only Windows separates with `\`; elsewhere it is a character of the name (`a\b.yaml`).
  const slashes = (p: string) => Deno.build.os === "windows" ? p.replaceAll("\\", "/") : p;
  const normal = slashes(path);
  const cwd = slashes(Deno.cwd()).replace(/\/$/, "");
  if (normal.startsWith(cwd + "/")) return join(normal.slice(cwd.length + 1));
  return normal.startsWith("/") ? normal.replace(/\/+/g, "/") : join(normal);
}

/**
 * `path` relative to `root`, both as given on the command line.
 *
 * @example
 * ```ts
 * import { relativeTo } from "./paths.ts";
 * if (relativeTo("flows/", "flows/b/2.yml") !== "b/2.yml") throw new Error();
 * if (relativeTo(".", "a.yaml") !== "a.yaml") throw new Error();
 * ```
 */
export function relativeTo(root: string, path: string): string {
  const r = join(root).replace(/\/$/, "");
  const p = join(path);
  if (r === "." || r === "") return p;
  return p.startsWith(r + "/") ? p.slice(r.length + 1) : p;
}

/**
 * The directory part of a path (`.` for a bare name).
 *
 * @example
 * ```ts
 * import { parentOf } from "./paths.ts";
 * if (parentOf("out/r.json") !== "out" || parentOf("r.json") !== "." || parentOf("/r") !== "/") {
 *   throw new Error();
 * }
 * ```
 */
export function parentOf(path: string): string {
  const slash = path.replaceAll("\\", "/").lastIndexOf("/");
  return slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
}

/**
 * A temporary name beside `path`, so the final rename stays on one file system.
 *
 * @example
 * ```ts
 * import { tempBeside } from "./paths.ts";
 * if (!/^out\/r\.json\.[0-9a-f]{8}\.tmp$/.test(tempBeside("out/r.json"))) throw new Error();
 * ```
 */
export function tempBeside(path: string): string {
  return `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
}
