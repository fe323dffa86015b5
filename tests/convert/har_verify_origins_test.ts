/**
 * `--verify` alone (no URL) replays a recording against the origins it was
 * recorded on: every one of them, not only the first. (Decap CMS, issue 52:
 * the admin page is served by the site's own static server and the CMS
 * talks to its content API, `decap-server`, on another port; the first
 * request was the page's `config.yml`, so `--verify` sent that one step and
 * left the 39 API steps "not sent: not the API's host", stopping a capture
 * of theirs at "0 tries".) Any app whose page and API, or API and sign-in
 * service, answer on two origins is the same case.
 *
 * The servers here are the recording's: the page (`/`, `/config.json`), the
 * API, which hands out a token at sign-in and keeps the entries made with it
 * under ids it makes, and a media service on a third port keeping uploads
 * under ids of its own. The HAR is built with their live origins, as a
 * recording made on this very instance would be.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

type Handler = (req: Request, body: Record<string, unknown>) => Response;

function serve(handler: Handler) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = req.method === "POST" ? await req.text() : "";
    return handler(req, text ? JSON.parse(text) : {});
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

/** The page, the API and the media service, each on its own port. */
function startApp() {
  const tokens = new Set<string>();
  const entries = new Map<string, string>();
  const refused: string[] = [];
  const page = serve((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/config.json") return json({ backend: "local", media: "static/images" });
    return new Response("<!doctype html><script src=/app.js></script>", {
      headers: { "content-type": "text/html" },
    });
  });
  const media = new Set<string>();
  const signedIn = (req: Request) =>
    tokens.has(req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
  const api = serve((req, body) => {
    if (new URL(req.url).pathname === "/token") {
      if (body.password !== "pw-typed") return json({ error: "bad password" }, 401);
      const token = `tok_${crypto.randomUUID()}`;
      tokens.add(token);
      return json({ token });
    }
    if (!signedIn(req)) {
      refused.push(`${body.action}: no token`);
      return json({ error: "sign in" }, 401);
    }
    if (body.action === "create") {
      const id = crypto.randomUUID();
      entries.set(id, String(body.title));
      return json({ id, title: body.title });
    }
    const id = String(body.id);
    if (!entries.has(id)) {
      refused.push(`${body.action}: ${id}`);
      return json({ error: `no entry ${id}` }, 404);
    }
    if (body.action === "delete") entries.delete(id);
    return json({ id, title: entries.get(id) ?? null });
  });
  const files = serve((req) => {
    const path = new URL(req.url).pathname;
    if (!signedIn(req)) {
      refused.push(`media ${path}: no token`);
      return json({ error: "sign in" }, 401);
    }
    if (req.method === "POST") {
      const id = crypto.randomUUID();
      media.add(id);
      return json({ id });
    }
    const id = path.split("/").at(-1)!;
    if (!media.has(id)) refused.push(`media ${id}`);
    return media.has(id) ? json({ id, size: 79 }) : json({ error: `no file ${id}` }, 404);
  });
  return {
    page,
    api,
    files,
    refused,
    close: () => Promise.all([page.close(), api.close(), files.close()]),
  };
}

/** One recorded exchange; a JSON body is sent as the page sends it. */
function entry(
  method: string,
  url: string,
  response: unknown,
  options: { body?: unknown; token?: string; html?: boolean } = {},
) {
  const headers = [{ name: "accept", value: "*/*" }];
  if (options.token) headers.push({ name: "authorization", value: `Bearer ${options.token}` });
  return {
    startedDateTime: "2026-11-30T04:00:00.000Z",
    time: 5,
    _resourceType: options.html ? "document" : "fetch",
    request: {
      method,
      url,
      httpVersion: "HTTP/1.1",
      headers: options.body === undefined
        ? headers
        : [...headers, { name: "content-type", value: "application/json" }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: -1,
      ...(options.body === undefined ? {} : {
        postData: { mimeType: "application/json", text: JSON.stringify(options.body) },
      }),
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: [],
      cookies: [],
      content: options.html
        ? { size: 10, mimeType: "text/html", text: "<!doctype html>" }
        : { size: 10, mimeType: "application/json", text: JSON.stringify(response) },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  };
}

/** The journey on `app`'s origins: open the page, sign in, upload, make an entry, read and delete it. */
function recording(app: ReturnType<typeof startApp>): string {
  const token = "tok_5d0b9e7c-2f41-4d8a-9a53-0c6e2b1f7a18";
  const id = "8a1f5c2e-93d7-4b60-a4e1-7f2c9d3b6e05";
  const file = "c3e9a7d1-0b52-4f86-8e2d-5a71f4c09b36";
  const api = `${app.api.origin}/api/v1`;
  const entries = [
    entry("GET", `${app.page.origin}/admin/`, undefined, { html: true }),
    entry("GET", `${app.page.origin}/config.json`, { backend: "local", media: "static/images" }),
    entry("POST", `${app.api.origin}/token`, { token }, { body: { password: "pw-typed" } }),
    entry("POST", `${app.files.origin}/upload`, { id: file }, { token, body: { name: "a.png" } }),
    entry("GET", `${app.files.origin}/media/${file}`, { id: file, size: 79 }, { token }),
    entry("POST", api, { id, title: "Harbour notes" }, {
      token,
      body: { action: "create", title: "Harbour notes", image: file },
    }),
    entry("POST", api, { id, title: "Harbour notes" }, { token, body: { action: "get", id } }),
    entry("POST", api, { id, title: null }, { token, body: { action: "delete", id } }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test" }, entries } });
}

Deno.test("--verify alone sends every recorded origin's steps: the page's, the API's, the media's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-origins-" });
  const app = startApp();
  try {
    await Deno.writeTextFile(`${dir}/s.har`, recording(app));
    const verified = await runCli(
      ["convert", "har", `${dir}/s.har`, "--verify", "-o", `${dir}/flow.yaml`],
      { env: { LOGIN_PASSWORD: "pw-typed" } },
    );
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(verified.stderr, /not sent/, verified.stderr);
    assert.doesNotMatch(verified.stderr, /0 tries/, verified.stderr);
    assert.equal(verified.code, 0, `${verified.stderr}\n${flow}`);
    assert.deepEqual(app.refused, []);
    // The summary and the flow's note name every origin verified, not only the first.
    for (const origin of [app.page.origin, app.api.origin, app.files.origin]) {
      const host = new URL(origin).host;
      assert.match(verified.stderr, new RegExp(`^Verified \\d+ steps against .*${host}`, "m"));
      assert.match(flow, new RegExp(`Verified against .*${host}`));
    }
    // The flow it wrote passes on the same instance, twice, as its summary says to run it.
    assert.match(verified.stderr, /^Set before running: LOGIN_PASSWORD\.$/m);
    const env = { LOGIN_PASSWORD: "pw-typed" };
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
    }
    assert.deepEqual(app.refused, []);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--verify with a URL still sends only that origin's steps, the others' hosts named", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-origins-" });
  const app = startApp();
  try {
    await Deno.writeTextFile(`${dir}/s.har`, recording(app));
    const verified = await runCli(
      ["convert", "har", `${dir}/s.har`, "--verify", app.page.origin, "-o", `${dir}/flow.yaml`],
      { env: { LOGIN_PASSWORD: "pw-typed" } },
    );
    // The URL given is one instance's; the other origins' recorded hosts may be another's.
    assert.match(verified.stderr, /not sent "login": its host 127\.0\.0\.1:\d+ is not/);
    assert.equal(verified.code, 1, verified.stderr);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
