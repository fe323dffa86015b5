/**
 * `convert har` on a single-page admin that sends `Authorization: Bearer
 * null` before its user signs in (Strapi 5's admin: the app reads its token
 * from storage and writes what it found, JavaScript's `null`, into the
 * header). That word is no credential: the summary asked for an
 * `API_TOKEN` nobody has, though the sign-in's answer gives every later
 * request its token. A bearer of `null` or `undefined` is now sent as
 * recorded; only the password is asked, and the flow passes on a server
 * that never issued the recorded token.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const RECORDED = "http://127.0.0.1:4242";
const OLD_TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.recordedSignature";

/** The journey as the browser recorded it: the app's start, the sign-in, the signed-in page. */
function recording(): string {
  const json = "application/json";
  const unset: [string, string][] = [["authorization", "Bearer null"], ["accept", json]];
  return harOf([
    { url: `${RECORDED}/admin/init`, headers: unset, json: { data: { hasAdmin: true } } },
    {
      method: "POST",
      url: `${RECORDED}/admin/login`,
      headers: [...unset, ["content-type", json]],
      body: JSON.stringify({ email: "owner@example.org", password: "recorded-pass-1" }),
      json: { data: { token: OLD_TOKEN, user: { id: 1 } } },
    },
    {
      url: `${RECORDED}/admin/users/me`,
      headers: [["authorization", `Bearer ${OLD_TOKEN}`], ["accept", json]],
      json: { data: { id: 1, email: "owner@example.org" } },
    },
  ]);
}

/** An admin that answers the app's start to anyone and `/users/me` only to the token it issued. */
function serve(password: string) {
  const issued = `live.${crypto.randomUUID()}`;
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/admin/init") return Response.json({ data: { hasAdmin: true } });
    if (path === "/admin/login") {
      const body = await req.json();
      if (body.password !== password) return Response.json({ error: "bad" }, { status: 400 });
      return Response.json({ data: { token: issued, user: { id: 1 } } });
    }
    if (req.headers.get("authorization") !== `Bearer ${issued}`) {
      return Response.json({ error: "Unauthorized" }, { status: 401 });
    }
    return Response.json({ data: { id: 1, email: "owner@example.org" } });
  });
}

Deno.test("convert har: a bearer of null sent before signing in is no credential: only the password is asked, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-unset-bearer-" });
  const server = serve("live-pass-2");
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.doesNotMatch(converted.stderr, /API_TOKEN/, converted.stderr);
    assert.match(converted.stderr, /LOGIN_PASSWORD/);
    assert.match(flow, /authorization: Bearer null/);
    assert.doesNotMatch(flow, /recordedSignature|recorded-pass-1/);
    const run = await runCli(["run", `${dir}/flow.yaml`], {
      env: {
        BASE_URL: `http://127.0.0.1:${server.addr.port}`,
        LOGIN_PASSWORD: "live-pass-2",
      },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
