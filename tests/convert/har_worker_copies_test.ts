/**
 * `convert har` on Playwright's recording of a single-page app whose service
 * worker forwards the page's own requests (NodeBB 4.10, by hand in
 * docs/real-servers-har.md). Every `fetch` the worker answers is written twice:
 * the page's entry (its body, the headers the script set, no cookies, no
 * `_serverPort`: the network never answered it) and the worker's own fetch of
 * the same URL (`_serviceWorkerRef`: the wire's headers, `Cookie`, `Origin`,
 * the `Set-Cookie` answered, no body). The server got one request; the flow
 * sent two, and the second delete of a post was refused as already done.
 *
 * What the converter does (lib/convert/worker_copies.ts): a worker's fetch of
 * the page's request (same method, URL and body, begun while the page's entry
 * was open, that entry answered by no server) is one request with it: the wire's
 * headers, cookies and `Set-Cookie` from the worker's, the body from the page's.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:3000";
const JSON_MIME = "application/json; charset=utf-8";
const CSRF = "c7d2e9a41f0b83c6d5e4";
const OLD = "s%3Aold7Qm2x", NEW = "s%3Anew4Rt8z";
const NOTE = "n-5f3a9c1e7b";

/** A forum-like API: the token in the page, a session renewed by a read, notes deleted once. */
function standIn() {
  const notes = new Map<string, string>();
  const sessions = new Set<string>();
  const refused: string[] = [];
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": JSON_MIME, ...headers },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=([^;]*)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (url.pathname === "/app") {
      const fresh = `s%3A${crypto.randomUUID().slice(0, 8)}`;
      sessions.add(fresh);
      return new Response(`<script>var config = {"csrf":"${CSRF}"};</script>`, {
        headers: { "content-type": "text/html", "set-cookie": `sid=${fresh}; Path=/` },
      });
    }
    const refuse = (why: string) => (refused.push(why), json({ error: why }, 400));
    if (url.pathname === "/api/session") {
      if (!sessions.delete(sid)) return refuse("no session");
      const renewed = `s%3A${crypto.randomUUID().slice(0, 8)}`;
      sessions.add(renewed);
      return json({ ok: true }, 200, { "set-cookie": `sid=${renewed}; Path=/` });
    }
    if (!sessions.has(sid)) return refuse(`unknown session ${sid}`);
    if (req.headers.get("x-csrf-token") !== CSRF) return refuse("bad token");
    if (req.method !== "GET" && req.headers.get("origin") !== url.origin) return refuse("origin");
    const id = /^\/api\/notes\/([^/]+)/.exec(url.pathname)?.[1];
    if (req.method === "POST" && url.pathname === "/api/notes") {
      const made = `n-${crypto.randomUUID().slice(0, 10)}`;
      notes.set(made, "live");
      return json({ note: { id: made } });
    }
    if (!id || !notes.has(id)) return refuse(`no note ${id}`);
    if (req.method === "PUT") return json({ note: { id, text: await req.text() } });
    if (req.method === "DELETE" && notes.get(id) === "deleted") return refuse("already deleted");
    notes.set(id, "deleted");
    return json({ deleted: id });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, refused, close: () => server.shutdown() };
}

interface Spec {
  method: string;
  path: string;
  ms: number;
  /** The worker's own fetch (`_serviceWorkerRef`), answered by the server. */
  worker?: boolean;
  /** Answered by the server (`_serverPort`); a page's entry the worker answered has none. */
  wire?: boolean;
  cookie?: string;
  headers?: Record<string, string>;
  body?: string;
  answer?: string;
  setCookie?: string;
  mime?: string;
}

/** One entry in Playwright's shape: the page's (a fetch) or the worker's. */
function entry(spec: Spec) {
  const headers = Object.entries(spec.headers ?? {}).map(([name, value]) => ({ name, value }));
  if (spec.cookie) headers.push({ name: "Cookie", value: spec.cookie });
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, spec.ms)).toISOString(),
    time: 120,
    ...(spec.worker ? { _serviceWorkerRef: "worker@1" } : { pageref: "page@1" }),
    ...(spec.wire || spec.worker ? { _serverPort: 3000 } : {}),
    _resourceType: spec.mime === "text/html" ? "document" : "fetch",
    request: {
      method: spec.method,
      url: `${ORIGIN}${spec.path}`,
      headers,
      cookies: [],
      ...(spec.body ? { postData: { mimeType: "application/json", text: spec.body } } : {}),
    },
    response: {
      status: 200,
      headers: [
        { name: "Content-Type", value: spec.mime ?? JSON_MIME },
        ...(spec.setCookie ? [{ name: "Set-Cookie", value: spec.setCookie }] : []),
      ],
      cookies: [],
      content: { mimeType: spec.mime ?? JSON_MIME, text: spec.answer ?? "" },
    },
  };
}

/** The page's request and the worker's fetch of it, as Playwright writes the pair. */
function pair(spec: Spec, wire: Record<string, string>, cookie: string) {
  const page = entry({ ...spec, answer: spec.answer });
  const worker = entry({
    ...spec,
    ms: spec.ms + 2,
    worker: true,
    headers: { ...spec.headers, ...wire },
    cookie,
    answer: "",
  });
  return [page, worker];
}

/** Open the app, renew the session, create a note, edit it, delete it. */
function recording(): string {
  const token = { "x-csrf-token": CSRF };
  const wire = { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" };
  const note = `{"note":{"id":"${NOTE}"}}`;
  const entries = [
    entry({
      method: "GET",
      path: "/app",
      ms: 0,
      wire: true,
      mime: "text/html",
      setCookie: `sid=${OLD}; Path=/`,
      answer: `<script>var config = {"csrf":"${CSRF}"};</script>`,
    }),
    ...pair(
      {
        method: "GET",
        path: "/api/session",
        ms: 500,
        answer: '{"ok":true}',
        setCookie: undefined,
      },
      {},
      `sid=${OLD}`,
    ),
    ...pair(
      {
        method: "POST",
        path: "/api/notes",
        ms: 1000,
        headers: token,
        body: '{"text":"seeds"}',
        answer: note,
      },
      wire,
      `sid=${NEW}`,
    ),
    ...pair(
      {
        method: "PUT",
        path: `/api/notes/${NOTE}`,
        ms: 2000,
        headers: token,
        body: '{"text":"seeds and bulbs"}',
        answer: note,
      },
      wire,
      `sid=${NEW}`,
    ),
    ...pair(
      {
        method: "DELETE",
        path: `/api/notes/${NOTE}/state`,
        ms: 3000,
        headers: token,
        answer: `{"deleted":"${NOTE}"}`,
      },
      wire,
      `sid=${NEW}`,
    ),
  ];
  // The session's renewal is on the wire only: the worker's entry holds the `Set-Cookie`.
  (entries[2].response.headers as { name: string; value: string }[]).push({
    name: "Set-Cookie",
    value: `sid=${NEW}; Path=/`,
  });
  return JSON.stringify({ log: { version: "1.2", creator: { name: "Playwright" }, entries } });
}

Deno.test("convert har: a request a service worker forwarded is one step, sent with the wire's headers", async () => {
  const app = standIn();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.equal(flow.match(/method: DELETE/g)?.length, 1, flow);
    assert.equal(flow.match(/method: PUT/g)?.length, 1, flow);
    assert.match(converted.stderr, /service worker's copy 4\b/, converted.stderr);
    for (const run of [1, 2]) {
      const got = await runCli(["run", `${dir}/app.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(got.code, 0, `run ${run}\n${got.stdout}\n${app.refused.join("\n")}\n${flow}`);
    }
    assert.deepEqual(app.refused, []);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
