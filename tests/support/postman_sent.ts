/**
 * What a converted Postman collection sends: the collection converted by
 * `flowrun convert postman` into a temporary folder and run as its summary
 * prints it (`Run: flowrun …`) against a server on 127.0.0.1 that records
 * each request and answers `{"ok": true}`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "./cli.ts";

/** A request the server got. */
export interface Received {
  /** The URL's path, as sent (percent-encoded). */
  path: string;
  headers: Headers;
  body: string;
}

/**
 * Writes the collection `c` (its host the variable `host`), converts it,
 * lets `prepare(flowsDir, summary)` do what the summary asks of a user (put
 * the files it uploads in place), and runs the printed command once with
 * `HOST` the server's origin: the run must pass. The requests the server
 * got, and the conversion's summary.
 *
 * @example
 * ```ts
 * import { sentBy } from "./postman_sent.ts";
 * const { requests } = await sentBy({
 *   info: { name: "C", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
 *   item: [{ name: "ping", request: { method: "GET", url: "{{host}}/ping" } }],
 *   variable: [{ key: "host", value: "http://localhost" }],
 * });
 * if (requests[0]?.path !== "/ping") throw new Error(JSON.stringify(requests));
 * ```
 */
export async function sentBy(
  c: unknown,
  prepare: (flowsDir: string, summary: string) => Promise<void> = () => Promise.resolve(),
): Promise<{ requests: Received[]; summary: string }> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-postman-sent-" });
  const requests: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    requests.push({ path, headers: req.headers, body: await req.text() });
    return Response.json({ ok: true });
  });
  try {
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(c));
    const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    await prepare(`${dir}/flows`, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(line.split(" "), { env: { HOST: `http://127.0.0.1:${port}` } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    return { requests, summary: converted.stderr };
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}
