/**
 * The shape of the Postman converter's tests against Newman: a server that
 * keeps every JSON body and judges it, Newman's run of the collection against
 * it, then the conversion run exactly as its summary prints.
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "./cli.ts";
import { type NewmanCounts, runNewman } from "./newman_counts.ts";

/** A server on 127.0.0.1 keeping each JSON body it was sent, in order. */
export interface BodyJudge {
  seen: Record<string, unknown>[];
  url: string;
  close(): Promise<void>;
}

/**
 * Keeps every JSON body and answers 201 to those `accepted` takes, else 400.
 *
 * @example
 * ```ts
 * import { bodyJudge } from "./newman_then_flow.ts";
 * const judge = bodyJudge((b) => b.n === 1);
 * const res = await fetch(judge.url, { method: "POST", body: '{"n":2}' });
 * await res.body?.cancel();
 * await judge.close();
 * if (res.status !== 400 || judge.seen.length !== 1) throw new Error();
 * ```
 */
export function bodyJudge(accepted: (body: Record<string, unknown>) => boolean): BodyJudge {
  const seen: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    seen.push(body);
    return Response.json({}, { status: accepted(body) ? 201 : 400 });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/**
 * Writes `collection` into `dir`, runs it with Newman (`baseUrl` = `url`),
 * converts it with default options, checks the summary says nothing
 * `refused` matches, and runs the flows as the summary prints (exit 0
 * asserted): Newman's counts, the summary and the run.
 *
 * @example
 * ```ts ignore
 * const { counts, run } = await newmanThenFlow(dir, collection, judge.url);
 * ```
 */
export async function newmanThenFlow(
  dir: string,
  collection: unknown,
  url: string,
  refused = /cannot express/,
): Promise<{ counts: NewmanCounts; summary: string; run: CliRun }> {
  const file = `${dir}/collection.json`;
  await Deno.writeTextFile(file, JSON.stringify(collection));
  const counts = await runNewman(file, { baseUrl: url });
  const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
  assert.equal(converted.code, 0, converted.stderr);
  const summary = converted.stdout + converted.stderr;
  assert.doesNotMatch(summary, refused, summary);
  const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  return { counts, summary, run };
}
