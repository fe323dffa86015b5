/**
 * `convert har` on a sign-in whose answer the recording lost, with no other
 * answer of that endpoint to show where the token was. A single-page app
 * posts the typed credentials, stores the JSON Web Token the answer holds
 * and reloads at once: Chromium drops the body of an answer whose page is
 * gone, and both HAR forms keep `200` and no text (seen on DbGate 7.2's
 * `POST /auth/login`, answering `{"accessToken": …}`;
 * docs/real-servers-har.md). Every later call sends the token, which no
 * recorded answer held, so the flow asked for an `API_TOKEN` nobody can know
 * and failed right after the sign-in on a fresh instance.
 *
 * A JSON Web Token says what it is by its own shape (three base64url parts,
 * the first a JSON header: `eyJ…`), so the sign-in captures it by that shape
 * from the live answer, wherever the answer holds it.
 *
 * The stand-in runs on 127.0.0.1 and signs a new token on every sign-in.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:8888";
const PASSWORD = "Tidal-Bracket-42";

const b64url = (text: string) =>
  btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** A token shaped as HS256 JWTs are (the signature is random: the stand-in keeps what it issued). */
function jwt(subject: string): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const claims = b64url(JSON.stringify({ sub: subject, iat: Date.now() }));
  const signature = b64url(crypto.randomUUID() + crypto.randomUUID());
  return `${head}.${claims}.${signature}`;
}

/** How the sign-in answers its token, and how the page sends it after. */
interface Shape {
  answer: (token: string) => unknown;
  header: string;
  scheme: string;
}

function standIn(shape: Shape) {
  const live = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/auth/login") {
      const body = await req.json().catch(() => ({}));
      if (body.password !== PASSWORD) return Response.json({ error: "bad" }, { status: 401 });
      const token = jwt(body.login);
      live.add(token);
      return Response.json(shape.answer(token));
    }
    const sent = (req.headers.get(shape.header) ?? "").replace(shape.scheme, "");
    if (pathname === "/config/get") return Response.json({ isUserLoggedIn: live.has(sent) });
    if (!live.has(sent)) return Response.json({ error: "not signed in" }, { status: 401 });
    return Response.json([{ id: "a1", name: "Sales DB" }]);
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

/** The sign-in (its answer lost, as the reload left it), then two reads sending its token. */
function recording(shape: Shape): string {
  const token = jwt("admin");
  const sent: [string, string][] = [[shape.header, `${shape.scheme}${token}`]];
  const har = JSON.parse(harOf([
    {
      method: "POST",
      url: `${RECORDED}/config/get`,
      body: "{}",
      headers: [["Content-Type", "application/json"]],
      json: { isUserLoggedIn: false },
    },
    {
      method: "POST",
      url: `${RECORDED}/auth/login`,
      headers: [["Content-Type", "application/json"]],
      body: JSON.stringify({ login: "admin", password: PASSWORD }),
    },
    {
      method: "POST",
      url: `${RECORDED}/config/get`,
      body: "{}",
      headers: sent,
      json: { isUserLoggedIn: true },
    },
    {
      method: "GET",
      url: `${RECORDED}/items`,
      headers: sent,
      json: [{ id: "a1", name: "Sales DB" }],
    },
  ]));
  har.log.entries[1].response.content = { mimeType: "application/json", size: -1 };
  return JSON.stringify(har);
}

for (
  const [label, shape] of [
    ["a top-level member", {
      answer: (t: string) => ({ accessToken: t }),
      header: "authorization",
      scheme: "Bearer ",
    }],
    ["a nested member", {
      answer: (t: string) => ({ ok: true, data: { session: { jwt: t } } }),
      header: "authorization",
      scheme: "Bearer ",
    }],
    ["a JSON string sent in a header of the product's own", {
      answer: (t: string) => t,
      header: "x-auth-token",
      scheme: "",
    }],
  ] as [string, Shape][]
) {
  Deno.test(`convert har: a JWT a lost sign-in answer held in ${label} is captured by its shape`, async () => {
    const { flow, run } = await convertHarThenRun(() => standIn(shape), recording(shape), {
      LOGIN_PASSWORD: PASSWORD,
    });
    const asked = new Set([...flow.matchAll(/\$\{ENV\.(\w+)/g)].map((m) => m[1]));
    asked.delete("BASE_URL");
    assert.deepEqual([...asked], ["LOGIN_PASSWORD"], flow);
    assert.ok(!flow.includes("eyJhbGciOiJIUzI1NiIs"), flow);
    assert.match(flow, /JSON Web Token/, flow);
    assert.equal(run.code, 0, run.stdout + flow);
  });
}

Deno.test("convert har: a lost answer is not read as holding a JWT that is not one", async () => {
  // An opaque token says nothing of itself: it is still asked for, and the note says why.
  const shape: Shape = { answer: (t) => ({ t }), header: "authorization", scheme: "Bearer " };
  const har = recording(shape).replaceAll(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, "opaque-0a9b8c7d6e5f4a3b");
  const { flow } = await convertHarThenRun(() => standIn(shape), har, { LOGIN_PASSWORD: PASSWORD });
  assert.match(flow, /API_TOKEN/, flow);
  assert.doesNotMatch(flow, /JSON Web Token/, flow);
});
