/**
 * What a flow main checked looks like, as a short digest: a worker that
 * loads a flow again (one JSON cannot hold) reads its includes, data files
 * and check files from disk once more, and any of them may have changed
 * since main checked it. The worker compares the digest of what it loaded
 * with main's and runs the flow only when they match; otherwise main runs
 * the flow it checked itself (`pool.ts`), so what runs is what was checked.
 *
 * The digest covers every plain value of the flow (steps, requests, checks
 * with their sources, data rows, included flows); compiled parts (a JSONPath
 * query, a schema validator) are objects no JSON holds and are left out:
 * each keeps the text it was compiled from beside it, which is covered.
 *
 * @module
 */
import type { Flow } from "../../model/flow.ts";

/**
 * The digest of a loaded flow: a 53-bit hash of its plain values, as hex
 * (a change to a file on disk is no attack to resist; a sync hash keeps the
 * order main hands flows out in).
 *
 * @example
 * ```ts
 * import { fingerprint } from "./fingerprint.ts";
 * const flow = (url: string) => ({ file: "a.yaml", name: "a", vars: [], steps: [{ name: "s", url, compiled: new Map() }] });
 * // deno-lint-ignore no-explicit-any
 * const [a, b, c] = [flow("x"), flow("x"), flow("y")].map((f) => fingerprint(f as any));
 * if (a !== b || a === c) throw new Error();
 * ```
 */
export function fingerprint(flow: Flow): string | undefined {
  let text: string;
  try {
    text = JSON.stringify(flow, plainOnly);
  } catch {
    return undefined; // A flow no JSON can walk (a cycle): the worker runs what it loads.
  }
  // cyrb53: two 32-bit lanes mixed into 53 bits.
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/** Keeps plain objects, arrays and scalars; a compiled part becomes a marker of its kind. */
function plainOnly(_key: string, value: unknown): unknown {
  if (typeof value === "function") return "[function]";
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? value : `[${proto?.constructor?.name}]`;
}
