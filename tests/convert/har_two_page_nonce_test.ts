/**
 * `convert har a.har b.har` on a page that makes a random value for each write and sends it under
 * a secret-looking name: a request token in a header (`X-Request-Token`, 32 hex), a `state` in the
 * query (base64url), a `nonce` in a JSON body (base64 with its padding) and a `csrf_nonce` in a
 * form body (40 hex), as Monit's and many single-page apps' write calls do. The server accepts any
 * fresh value of that shape and refuses one it has seen. Each was asked of the user as a secret
 * (or sent as recorded, refused on replay), because a name cannot tell it from a pasted token. The
 * evidence can: no answer held it, it differs between the recordings, both are random of one shape
 * and length, and the server took either (the request succeeded in both): the page made it, so the
 * flow makes one of the same shape, on every run. What the user holds stays asked: an API token
 * equal in both recordings, and an invitation token the user typed into the page's text input,
 * however random either looks.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:7420";
const API_TOKEN = "9c0f3e1a7b2d4c5e8f60718293a4b5c6d7e8f901";

/** Each recording's values: the page's nonces, and the invitation the user typed. */
interface Sent {
  header: string;
  state: string;
  nonce: string;
  form: string;
  invite: string;
}

const FIRST: Sent = {
  header: "3fa1c9e07b5d4e2a9c81f6d0b3e7a5c2",
  state: "Qm9v-Lx7_kP2aZ4tWc8yRg",
  nonce: "q8Zl1m0WcT9xYb2Kp4Rs7A==",
  form: "9f3a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a",
  invite: "e41c7a9b0d2f4e6a8b1c3d5f",
};
const SECOND: Sent = {
  header: "c07e2b9d1f4a6c8e0b3d5f7a9c1e2b4d",
  state: "x_Tn3Pq-9aLm0Zr5Vb7cKw",
  nonce: "Hk3vN8pQ2rT6wY0aZc5eBg==",
  form: "1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e",
  invite: "7b9d1f3a5c7e9b0d2f4a6c8e",
};

const SHAPES: Record<keyof Omit<Sent, "invite">, RegExp> = {
  header: /^[0-9a-f]{32}$/,
  state: /^[A-Za-z0-9_-]{22}$/,
  nonce: /^[A-Za-z0-9+/]{22}==$/,
  form: /^[0-9a-f]{40}$/,
};

/** A stand-in that takes any fresh nonce of its shape, refuses a reused one, and checks what the user holds. */
function standIn(invite: string) {
  const seen = new Set([FIRST, SECOND].flatMap((s) => [s.header, s.state, s.nonce, s.form]));
  const fresh = (kind: keyof typeof SHAPES, value: string | null | undefined) => {
    if (typeof value !== "string" || !SHAPES[kind].test(value) || seen.has(value)) return false;
    seen.add(value);
    return true;
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/invite") {
      const html = '<form><input type="text" name="invite_token"><button>Join</button></form>';
      return new Response(html, { headers: { "content-type": "text/html" } });
    }
    if (req.headers.get("x-api-token") !== API_TOKEN) return Response.json({}, { status: 401 });
    if (url.pathname === "/api/orders" && req.method === "POST") {
      const body = await req.json();
      const ok = fresh("header", req.headers.get("x-request-token")) &&
        fresh("state", url.searchParams.get("state")) && fresh("nonce", body.nonce);
      return ok ? Response.json({ id: 5 }, { status: 201 }) : Response.json({}, { status: 409 });
    }
    if (url.pathname === "/join" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (form.get("invite_token") !== invite) return Response.json({}, { status: 403 });
      return fresh("form", form.get("csrf_nonce"))
        ? Response.json({ joined: true })
        : Response.json({}, { status: 409 });
    }
    return Response.json({}, { status: 404 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording: the invitation page, an order and the join, with this session's values. */
function recording(s: Sent): string {
  const token: [string, string] = ["X-Api-Token", API_TOKEN];
  return harOf([
    { url: `${AT}/invite`, html: '<form><input type="text" name="invite_token"></form>' },
    {
      method: "POST",
      url: `${AT}/api/orders?state=${s.state}`,
      headers: [token, ["X-Request-Token", s.header]],
      body: JSON.stringify({ item: "tea", nonce: s.nonce }),
      status: 201,
      json: { id: 5 },
    },
    {
      method: "POST",
      url: `${AT}/join`,
      headers: [token],
      mime: "application/x-www-form-urlencoded",
      body: `invite_token=${s.invite}&csrf_nonce=${s.form}`,
      json: { joined: true },
    },
  ]);
}

Deno.test("convert har with two recordings: random values the page made under secret-looking names are made fresh of the same shape on each run; a token equal in both or typed into an input is still asked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-page-nonce-" });
  const app = standIn("5a7c9e1b3d5f7a9c0e2b4d6f");
  try {
    const { converted, flow } = await convertHars(dir, [recording(FIRST), recording(SECOND)]);
    // The flow's comments quote the recorded requests; what it sends is in the other lines.
    const sent = flow.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
    for (const s of [FIRST, SECOND]) {
      for (const v of [s.header, s.state, s.nonce, s.form, s.invite]) {
        assert.ok(!sent.includes(v), `${v}\n${flow}`);
      }
    }
    assert.ok(!flow.includes(API_TOKEN), flow);
    const asked = converted.stderr.match(/Set before running: (.*)\./)?.[1].split(", ") ?? [];
    assert.equal(asked.length, 2, converted.stderr);
    const env: Record<string, string> = { BASE_URL: app.origin };
    for (const name of asked) {
      env[name] = /INVITE/.test(name) ? "5a7c9e1b3d5f7a9c0e2b4d6f" : API_TOKEN;
    }
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}\n${converted.stderr}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har with two recordings: a random value under a secret-looking name whose request the server refused in one recording is still asked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-page-nonce-refused-" });
  try {
    const refused = recording(SECOND).replace('"status":201', '"status":403');
    const { converted, flow } = await convertHars(dir, [recording(FIRST), refused]);
    assert.doesNotMatch(flow, /x-request-token: \$\{vars\./, flow);
    assert.match(converted.stderr, /Set before running: .*REQUEST_TOKEN/, converted.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
