/**
 * Newman run in a process of its own (`postman_newman.ts`, which imports Newman), for the
 * real-server Postman tests: Newman keeps timers and sockets of its own, and a child process is
 * killed whole if it hangs.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { NewmanRequest } from "./postman_newman.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Newman's run of `collection` with the variables `pairs` (`NAME=VALUE`), killed after 3
 * minutes; a form's file `src` is read from `workingDir`. Gives the requests Newman sent, in
 * order.
 *
 * @example
 * ```ts ignore
 * import { newmanRun } from "./newman_child.ts";
 * const sent = await newmanRun("/tmp/c.json", "/tmp", ["APIURL=http://127.0.0.1:3000/api"]);
 * ```
 */
export async function newmanRun(
  collection: string,
  workingDir: string,
  pairs: readonly string[] = [],
): Promise<NewmanRequest[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}tests/real/postman_newman.ts`, collection, workingDir, ...pairs],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
  return JSON.parse(text.trim().split("\n").at(-1)!);
}
