/**
 * `convert har` on a read still in flight when the user signs out, as in
 * Ghost's admin (tests/real/ghost_har_test.ts): the posts list is asked for,
 * the sign-out (`DELETE /session`) is sent 90 ms later, and on a busy
 * machine the list's answer (200) begins while the sign-out is being
 * answered. The replay order took the list for a long-poll held until the
 * sign-out (answer_order.ts) and sent it after it: 403, and every later step
 * skipped.
 *
 * Evidence: the next request after the write's answer was refused (401 or
 * 403) where the read had been answered 2xx, so the write ended what the
 * read needed: the read was answered before it took effect and keeps its
 * place. Widened to the class: with the requests' cookies recorded
 * (Playwright) or not (chrome-har), and a write after which the next
 * request is answered 2xx still has a held read moved after it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

/** A stand-in whose list needs the session the login made, until the sign-out ends it. */
function standIn() {
  let session = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") {
      session = crypto.randomUUID();
      const headers = { "set-cookie": `sid=${session}; Path=/; HttpOnly` };
      return Response.json({ ok: true }, { status: 201, headers });
    }
    const alive = session !== "" && (req.headers.get("cookie") ?? "").includes(`sid=${session}`);
    if (!alive) return Response.json({ errors: ["sign in"] }, { status: 403 });
    if (url.pathname === "/session") {
      session = "";
      return new Response(null, { status: 204 });
    }
    return Response.json({ items: [{ title: "Notes" }] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const SID = "b2f9c0e4-7a61-4d3e-9c85-1e0f6a2d4b7c";

/**
 * Login, the list (sent 90 ms before the sign-out, its answer begun while the
 * sign-out was answered), the sign-out, then a refused request; `cookies`:
 * whether the requests hold their cookies.
 */
function recording(cookies: boolean, after = 403): string {
  const at = "http://127.0.0.1:2368";
  const cookie: [string, string][] = cookies ? [["Cookie", `sid=${SID}`]] : [];
  const har = JSON.parse(harOf([
    {
      method: "POST",
      url: `${at}/login`,
      body: '{"username":"ada"}',
      status: 201,
      json: { ok: true },
      setCookies: [["sid", SID]],
    },
    { url: `${at}/items`, headers: cookie, json: { items: [{ title: "Notes" }] } },
    { method: "DELETE", url: `${at}/session`, headers: cookie, status: 204 },
    { url: `${at}/stats`, headers: cookie, status: after, json: { errors: ["sign in"] } },
  ]));
  const base = Date.UTC(2026, 0, 1, 10, 0, 0);
  // [start, time, receive]: the list's answer begins at 165 ms, the sign-out's ends at 236 ms.
  const times = [[0, 20, 2], [500, 167, 3], [590, 146, 3], [750, 14, 5]];
  har.log.entries.forEach((e: Record<string, unknown>, i: number) => {
    const [start, time, receive] = times[i];
    e.startedDateTime = new Date(base + start).toISOString();
    e.time = time;
    e.timings = { send: 0, wait: time - receive, receive };
    e._resourceType = "xhr";
  });
  return JSON.stringify(har);
}

/** The names of the flow's steps, in order. */
function stepNames(flow: string): string[] {
  return [...flow.matchAll(/^ {2}- name: (\w+)$/gm)].map((m) => m[1]);
}

for (const cookies of [true, false]) {
  Deno.test(
    `convert har: a read answered while the sign-out was keeps its place before it and passes (${
      cookies ? "cookies recorded" : "no request cookies, as chrome-har"
    })`,
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "flowrun-har-logout-order-" });
      const app = standIn();
      try {
        const { flow } = await convertHar(dir, recording(cookies));
        assert.deepEqual(stepNames(flow), ["login", "list_items", "delete_session", "list_stats"]);
        const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
        assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
      } finally {
        await app.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}

Deno.test("convert har: a read whose answer began as a write was answered, the next request answered 2xx, still replays after that write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-logout-order-" });
  try {
    const { flow } = await convertHar(dir, recording(true, 200));
    assert.deepEqual(stepNames(flow), ["login", "delete_session", "list_items", "list_stats"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
