/**
 * `convert har` on a token answer the recording lost, with no later answer
 * of the same endpoint to read it from. Seen on a loaded CI machine: the
 * Node-RED editor's `POST /auth/token` (an OAuth2 password grant) kept its
 * status and no text in both HAR forms, so the Bearer token every later
 * request sent came from no recorded answer; the flow asked for an
 * `API_TOKEN` nobody can know and failed right after the sign-in on a fresh
 * instance. The request itself is the evidence: a body with `grant_type` is
 * an OAuth2 token request, whose successful answer RFC 6749 §5.1 defines as
 * JSON holding `access_token`. The token first sent after it (as a Bearer
 * credential or an `access_token` query parameter, RFC 6750), which no
 * earlier request sent and no earlier answer held, is read as that member.
 *
 * The stand-in runs on 127.0.0.1 and makes a new token on every grant.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:8888";
const PASSWORD = "Tidal-Bracket-42";
const TOKEN = "Q2hvc2VuIGJ5IHRoZSBzZXJ2ZXI+9f1c2e7a4b6d8e0f1a2b3c4d5e6f7081=";

/** How the grant is posted and how the token is sent back. */
interface Shape {
  body: "form" | "json";
  place: "bearer" | "query";
}

function standIn(shape: Shape) {
  const live = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/auth/token") {
      const text = await req.text();
      const fields = shape.body === "json"
        ? JSON.parse(text)
        : Object.fromEntries(new URLSearchParams(text));
      if (fields.grant_type !== "password" || fields.password !== PASSWORD) {
        return Response.json({ error: "invalid_grant" }, { status: 401 });
      }
      const token = crypto.randomUUID().replaceAll("-", "") + "Zx9=";
      live.add(token);
      return Response.json({ access_token: token, expires_in: 604800, token_type: "Bearer" });
    }
    const sent = shape.place === "query"
      ? url.searchParams.get("access_token") ?? ""
      : (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    if (!live.has(sent)) return new Response("Unauthorized", { status: 401 });
    return Response.json({ httpNodeRoot: "/", version: "4.1.8" });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The grant (its answer lost), then two reads sending the token it gave. */
function recording(shape: Shape, grant = true): string {
  const fields = { client_id: "editor", grant_type: grant ? "password" : undefined };
  const sent = { ...fields, scope: "*", username: "admin", password: PASSWORD };
  const body = shape.body === "json"
    ? JSON.stringify(sent)
    : new URLSearchParams(Object.entries(sent).filter(([, v]) => v !== undefined) as string[][])
      .toString();
  const read = (path: string) =>
    shape.place === "query"
      ? { url: `${RECORDED}${path}?access_token=${encodeURIComponent(TOKEN)}` }
      : { url: `${RECORDED}${path}`, headers: [["Authorization", `Bearer ${TOKEN}`]] };
  const har = JSON.parse(harOf(
    [
      {
        method: "POST",
        url: `${RECORDED}/auth/token`,
        mime: shape.body === "json" ? "application/json" : "application/x-www-form-urlencoded",
        body,
      },
      { ...read("/settings"), json: { httpNodeRoot: "/", version: "4.1.8" } },
      { ...read("/flows"), json: { httpNodeRoot: "/", version: "4.1.8" } },
    ] as Parameters<typeof harOf>[0],
  ));
  // What Chromium leaves of an answer whose body it could not read: the status, no text.
  har.log.entries[0].response.content = { mimeType: "application/json", size: -1 };
  return JSON.stringify(har);
}

function convertAndRun(shape: Shape, grant = true) {
  const env = { LOGIN_PASSWORD: PASSWORD, API_TOKEN: "unknown" };
  return convertHarThenRun(() => standIn(shape), recording(shape, grant), env);
}

for (
  const shape of [
    { body: "form", place: "bearer" },
    { body: "json", place: "bearer" },
    { body: "form", place: "query" },
  ] as Shape[]
) {
  Deno.test(`convert har: a lost OAuth2 token answer (${shape.body} grant, token as ${shape.place}) is read as holding access_token`, async () => {
    const { flow, run } = await convertAndRun(shape);
    // Only the password the user typed is asked for: the token is the grant's.
    const asked = new Set([...flow.matchAll(/\$\{ENV\.(\w+)/g)].map((m) => m[1]));
    asked.delete("BASE_URL");
    assert.deepEqual([...asked], ["LOGIN_PASSWORD"], flow);
    assert.ok(!flow.includes(TOKEN.slice(0, 20)), flow);
    assert.match(flow, /access_token: \$\.json\.access_token/, flow);
    assert.match(flow, /lost/i, flow);
    assert.equal(run.code, 0, run.stdout + flow);
  });
}

Deno.test("convert har: a lost answer of a request that is no OAuth2 grant is not read as a token answer, and the summary says why the token is asked", async () => {
  // No grant_type: nothing says what the answer held, so the token stays the user's to give.
  const { flow, run } = await convertAndRun({ body: "form", place: "bearer" }, false);
  assert.match(flow, /API_TOKEN/, flow);
  assert.doesNotMatch(flow, /\$\.json\.access_token/, flow);
  // The user is told why the token is asked for, and what would let it be captured.
  assert.match(
    flow,
    /auth\/token is lost from the recording .* GET \/settings after it sends a token/,
    flow,
  );
  assert.match(flow, /Record the journey again/, flow);
  assert.notEqual(run.code, 0, run.stdout);
});
