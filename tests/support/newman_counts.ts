/**
 * Newman, Postman's own runner, as the reference a converted suite is
 * compared with: one run of a collection in a process of its own
 * (tests/support/newman_run.ts, since Newman keeps timers and sockets of its
 * own), its counts read back from the one JSON line it prints.
 *
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../..", import.meta.url).pathname;

/** What Newman counted in one run. */
export interface NewmanCounts {
  requests: number;
  failedRequests: number;
  assertions: number;
  failedAssertions: number;
}

/**
 * Runs `collection` (a file) with Newman, `vars` as its environment, `data`
 * its data file (`-d`) when given; fails the
 * test with Newman's own output when it does not finish its run.
 *
 * @example
 * ```ts ignore
 * const counts = await runNewman("/tmp/c.json", { baseUrl: "http://127.0.0.1:8080" });
 * console.log(counts.requests, counts.failedAssertions);
 * ```
 */
export async function runNewman(
  collection: string,
  vars: Record<string, string> = {},
  data?: string,
): Promise<NewmanCounts> {
  const child = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${ROOT}tests/support/newman_run.ts`,
      collection,
      ...(data ? [`--data=${data}`] : []),
      ...Object.entries(vars).map(([k, v]) => `${k}=${v}`),
    ],
    cwd: ROOT,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  const out = decoder.decode(child.stdout);
  assert.equal(child.code, 0, out + decoder.decode(child.stderr));
  return JSON.parse(out.trim().split("\n").at(-1)!);
}
