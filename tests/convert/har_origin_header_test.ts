/**
 * `convert har` on a browser's `Origin` header. A browser sends `Origin` on
 * every POST, PUT, PATCH and DELETE, and a cookie-session server may refuse
 * an unsafe request without its own origin, as better-auth's CSRF check does
 * (403 `MISSING_OR_NULL_ORIGIN`, or `INVALID_ORIGIN` for another one; seen on
 * franco2ke/fastify-todo-ts, docs/real-servers.md). The converter dropped
 * the header as browser noise, so such a journey failed on its first
 * replayed POST; written literally it would name the recorded host and port,
 * wrong on a fresh instance elsewhere. On an unsafe request sending a
 * cookie, an `Origin` that is a recorded API origin is now sent as that base
 * URL's origin (`${origin:vars.base_url}`); one of a page the recording
 * holds no request to stays dropped, as does any on a request sending no
 * cookie (tests/convert/har_test.ts: a bearer journey keeps none).
 *
 * The stand-in runs on 127.0.0.1 and refuses a cookie-carrying POST whose
 * `Origin` is not its own.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:8888";

function standIn() {
  const seen = { origins: [] as string[], refused: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname, origin: own } = new URL(req.url);
    const origin = req.headers.get("origin");
    if (req.method !== "GET") seen.origins.push(origin ?? "");
    if (pathname === "/api/auth/sign-in") {
      await req.body?.cancel();
      return Response.json({ ok: true }, { headers: { "set-cookie": "sid=s-1; Path=/" } });
    }
    if (!/sid=s-1/.test(req.headers.get("cookie") ?? "")) {
      return Response.json({ code: "UNAUTHORIZED" }, { status: 401 });
    }
    if (req.method !== "GET" && origin !== own) {
      seen.refused++;
      const code = origin === null ? "MISSING_OR_NULL_ORIGIN" : "INVALID_ORIGIN";
      return Response.json({ code }, { status: 403 });
    }
    return Response.json({ id: 7, title: "t" });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, seen, close: () => server.shutdown() };
}

/** A sign-in, then a cookie-carrying POST the browser sent with `Origin: <its page>`. */
function recording(origin: string): string {
  const sent: [string, string][] = [["Origin", origin], ["Content-Type", "application/json"]];
  return harOf([
    {
      method: "POST",
      url: `${RECORDED}/api/auth/sign-in`,
      headers: sent,
      body: '{"email":"a@example.com"}',
      json: { ok: true },
      setCookies: [["sid", "s-1"]],
    },
    {
      method: "POST",
      url: `${RECORDED}/api/tasks`,
      headers: [...sent, ["Cookie", "sid=s-1"]],
      body: '{"title":"t"}',
      json: { id: 7, title: "t" },
    },
  ]);
}

async function convertAndRun(origin: string) {
  const { flow, run, server } = await convertHarThenRun(standIn, recording(origin));
  return { flow, run, seen: server.seen };
}

Deno.test("convert har: a recorded Origin of the API is sent as its base URL's origin, and passes a CSRF check on a fresh instance", async () => {
  const { flow, run, seen } = await convertAndRun(RECORDED);
  assert.match(flow, /origin: \$\{origin:vars\.base_url\}/, flow);
  assert.ok(!/origin: .*8888/.test(flow), flow);
  assert.equal(run.code, 0, run.stdout + flow);
  assert.equal(seen.refused, 0);
  // The sign-in sends no cookie yet, so no Origin (nothing to guard); the POST with the session does.
  assert.equal(seen.origins.length, 2);
  assert.equal(seen.origins[0], "");
  assert.match(seen.origins[1], /^http:\/\/127\.0\.0\.1:\d+$/);
});

Deno.test("convert har: an Origin of a page the recording holds no request to stays dropped", async () => {
  const { flow } = await convertAndRun("https://app.example");
  assert.ok(!/^\s+origin:/im.test(flow), flow);
  assert.ok(!flow.includes("app.example"), flow);
});
