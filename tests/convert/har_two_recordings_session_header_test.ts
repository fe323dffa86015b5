/**
 * `convert har a.har b.har` on a page that makes one id for its session and sends it in a header
 * with every request, as n8n 1.123's editor sends `browser-id` (a UUID kept in local storage;
 * the server binds the login to it and answers 401 to a request that sends another;
 * docs/real-servers.md). Each recording sent one UUID throughout, and the two differ: made
 * fresh, it was written as `${RANDOM.UUID}` in every header, a new UUID at each request, so
 * every request after the login was refused. A body value made fresh is one var a run, sent
 * wherever the recording sent it; a header's is now the same.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

/** A stand-in that binds the login to the session header and refuses any other. */
function standIn() {
  let bound: string | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const id = req.headers.get("browser-id") ?? "";
    if (new URL(req.url).pathname === "/login") {
      bound = id;
      return Response.json({ ok: true });
    }
    return id === bound ? Response.json({ list: [] }) : Response.json({}, { status: 401 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One session: the login and three reads, each with the session's `browser-id`. */
function session(browserId: string): string {
  const at = (path: string) => `http://127.0.0.1:5678${path}`;
  const headers: [string, string][] = [["browser-id", browserId]];
  return harOf([
    { method: "POST", url: at("/login"), body: "{}", headers, json: { ok: true } },
    ...["/settings", "/projects", "/tags"].map((p) => ({
      url: at(p),
      headers,
      json: { list: [] },
    })),
  ]);
}

Deno.test("convert har with two recordings: a session id the page sent in a header, equal within each recording and different between them, is one value a run, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-session-header-" });
  const app = standIn();
  try {
    const { flow } = await convertHars(dir, [
      session("0f65bf9c-aa8f-4fa4-bc75-c51469996680"),
      session("7d1e2c3b-4a59-4e68-9f70-8a1b2c3d4e5f"),
    ]);
    assert.doesNotMatch(flow, /browser-id: \$\{RANDOM\.UUID\}/, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
