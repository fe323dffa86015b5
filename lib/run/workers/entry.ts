/**
 * Where a flow worker's module is. From source it is `worker_main.ts` beside
 * this file; the bundle `deno task bundle` writes (`cli/bundle_entry.ts`)
 * moves every module into a few files, so `new URL("./worker_main.ts",
 * import.meta.url)` would point at nothing there, and the bundle names its
 * own worker module instead, once, before any run starts.
 *
 * @module
 */

let entry: URL = new URL("./worker_main.ts", import.meta.url);

/**
 * The module a worker thread starts from.
 *
 * @example
 * ```ts
 * import { workerEntry } from "./entry.ts";
 * if (!workerEntry().pathname.endsWith("/worker_main.ts")) throw new Error();
 * ```
 */
export function workerEntry(): URL {
  return entry;
}

/**
 * Names the module worker threads start from (the bundle's own worker module).
 *
 * @example
 * ```ts
 * import { setWorkerEntry, workerEntry } from "./entry.ts";
 * const before = workerEntry();
 * setWorkerEntry(new URL("file:///bundle/lib/run/workers/worker_main.js"));
 * if (!workerEntry().href.endsWith(".js")) throw new Error();
 * setWorkerEntry(before);
 * ```
 */
export function setWorkerEntry(url: URL): void {
  entry = url;
}
