/**
 * `convert har` on a single-page app's journey exported by Chrome DevTools'
 * default "Export HAR (sanitized)": no `Authorization` header anywhere. The
 * login answers an OAuth 2 token (`access_token`, `token_type` Bearer); the
 * app's later calls sent it as `Authorization: Bearer` and were answered
 * 200 and 201, but the recording no longer shows it, so the flow sent none
 * and the live server answered 401.
 *
 * What the converter does (lib/convert/har_sanitized.ts): the token answer
 * says how its token is used (RFC 6750), so the later calls a script sent
 * to its origin carry it, captured from the live answer; the summary names
 * the answer. The calls before the token, the documents, and another
 * producer's recording stay as recorded; nothing recorded is written.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const PASSWORD = "keeper-typed-62";
const ORIGIN = "http://127.0.0.1:8302";
const RECORDED_TOKEN = "recorded-4f1c2d3e4a5b6c7d8e9f0a1b";

/** A stand-in: a token for the password, the items for the token. */
function standIn() {
  const tokens = new Set<string>();
  const items: { id: number; name: string }[] = [];
  const json = (status: number, body: unknown) => Response.json(body, { status });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/config") return json(200, { title: "Stand-in" });
    if (url.pathname === "/api/login" && req.method === "POST") {
      const { password } = await req.json();
      if (password !== PASSWORD) return json(403, { error: "wrong" });
      const token = crypto.randomUUID();
      tokens.add(token);
      return json(200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    if (!tokens.has(bearer)) return json(401, { error: "Unauthorized" });
    if (url.pathname === "/api/items" && req.method === "POST") {
      const item = { id: items.length + 1, name: (await req.json()).name };
      items.push(item);
      return json(201, item);
    }
    if (url.pathname === "/api/items") return json(200, items);
    return json(404, {});
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

/** One fetch call of the recording, answered `status` with `answer`. */
function call(method: string, path: string, status: number, answer: unknown, body?: unknown) {
  return {
    startedDateTime: "",
    time: 5,
    request: {
      method,
      url: `${ORIGIN}${path}`,
      headers: [{ name: "Accept", value: "application/json" }],
      cookies: [],
      ...(body === undefined
        ? {}
        : { postData: { mimeType: "application/json", text: JSON.stringify(body) } }),
    },
    response: {
      status,
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      content: { mimeType: "application/json", text: JSON.stringify(answer) },
    },
    _resourceType: "fetch",
  };
}

/** The journey as `creator` exported it, with no Authorization header. */
function recording(creator: string): string {
  const entries = [
    call("GET", "/api/config", 200, { title: "Stand-in" }),
    call("POST", "/api/login", 200, {
      access_token: RECORDED_TOKEN,
      token_type: "Bearer",
      expires_in: 3600,
    }, { username: "keeper", password: PASSWORD }),
    call("POST", "/api/items", 201, { id: 1, name: "lamp" }, { name: "lamp" }),
    call("GET", "/api/items", 200, [{ id: 1, name: "lamp" }]),
  ].map((e, i) => ({
    ...e,
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
  return JSON.stringify({ log: { version: "1.2", creator: { name: creator }, entries } });
}

/** Converts `har` with the default options: the flow and the summary. */
async function convert(har: string, dir: string) {
  await Deno.writeTextFile(`${dir}/app.har`, har);
  const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  return { flow: await Deno.readTextFile(`${dir}/app.yaml`), summary: converted.stderr };
}

Deno.test("convert har: DevTools' sanitized export sends the Bearer token the login answered to the later calls, read live, twice", async () => {
  const app = standIn();
  const dir = await Deno.makeTempDir();
  try {
    const { flow, summary } = await convert(recording("WebInspector"), dir);
    assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
    assert.match(summary, /send the Bearer token POST \/api\/login answered/);
    assert.ok(!flow.includes(RECORDED_TOKEN) && !flow.includes(PASSWORD), flow);
    const sends = flow.match(/authorization: Bearer \$\{steps\.login\.capture\.[\w]+\}/gi) ?? [];
    assert.equal(sends.length, 2, flow);
    for (const n of [1, 2]) {
      const env = { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD };
      const run = await runCli(["run", `${dir}/app.yaml`], { env });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: another producer's recording of the token answer sends no header it did not record", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { flow, summary } = await convert(recording("Playwright"), dir);
    assert.doesNotMatch(flow, /authorization/i, flow);
    assert.doesNotMatch(summary, /sanitized/, summary);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
