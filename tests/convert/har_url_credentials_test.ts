/**
 * `convert har` on credentials a recording holds only in the request URL's
 * user part (`http://user:password@host/...`): a page that passes a user and
 * password to `XMLHttpRequest.open` (Radicale's web UI,
 * tests/real/radicale_har_test.ts) is recorded that way by Playwright and by
 * chrome-har alike, with no `Authorization` header, though the browser sent
 * `Basic base64(user:password)` on every request. The converter dropped the
 * user part with the URL's origin, so the flow sent no credentials and every
 * step got 401 on the real server. Now the URL's credentials are the Basic
 * header the browser sent: the step's `auth: basic`, the user name as
 * recorded, the password the one variable asked and written nowhere.
 * Widened to the class: a password with percent-encoded characters, a
 * request that recorded its own `Authorization` too (that one is what was
 * sent), WebDAV methods with XML bodies.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const USER = "ada";
/** The password as typed: `@`, `:` and `/` are percent-encoded in the URL's user part. */
const PASSWORD = "Quill@Harbor:77/x";
const IN_URL = encodeURIComponent(PASSWORD);
const BASIC = `Basic ${btoa(`${USER}:${PASSWORD}`)}`;

/** A stand-in WebDAV server that answers 401 to anything without the Basic credentials. */
function standIn() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const ok = req.headers.get("authorization") === BASIC;
    seen.push(`${req.method} ${path} ${ok ? "ok" : "401"}`);
    await req.body?.cancel();
    if (!ok) return new Response("", { status: 401, headers: { "www-authenticate": "Basic" } });
    if (req.method === "PROPFIND") {
      return new Response('<?xml version="1.0"?><multistatus xmlns="DAV:"/>', {
        status: 207,
        headers: { "content-type": "text/xml; charset=utf-8" },
      });
    }
    return new Response(null, { status: req.method === "MKCOL" ? 201 : 200 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, seen, close: () => server.shutdown() };
}

/** One entry as Playwright records a request made with `XMLHttpRequest.open(m, u, true, user, pw)`. */
function entry(method: string, path: string, status: number, extra: object = {}) {
  return {
    startedDateTime: "2026-11-26T17:00:00.000Z",
    request: {
      method,
      url: `http://${USER}:${IN_URL}@127.0.0.1:5232${path}`,
      headers: [{ name: "Accept", value: "*/*" }],
      ...extra,
    },
    response: {
      status,
      headers: [],
      content: status === 207
        ? { mimeType: "text/xml", text: '<?xml version="1.0"?><multistatus xmlns="DAV:"/>' }
        : { mimeType: "x-unknown", size: 0, text: "" },
    },
    _resourceType: "xhr",
  };
}

const xml = (text: string) => ({
  postData: { mimeType: "text/plain;charset=UTF-8", text: `<?xml version="1.0"?>${text}` },
});

function recording(): string {
  return JSON.stringify({
    log: {
      entries: [
        entry(
          "PROPFIND",
          "/",
          207,
          xml('<propfind xmlns="DAV:"><prop><displayname/></prop></propfind>'),
        ),
        entry("MKCOL", "/ada/books/", 201, xml('<mkcol xmlns="DAV:"><set><prop/></set></mkcol>')),
        // A request that recorded its header too: the header is what was sent, once.
        entry("DELETE", "/ada/books/", 200, {
          headers: [{ name: "Authorization", value: BASIC }],
        }),
      ],
    },
  });
}

Deno.test("convert har: credentials in a recorded URL's user part are the Basic header the browser sent: auth basic, the password asked, and the flow passes on a server that wants them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-url-credentials-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    for (const secret of [PASSWORD, IN_URL, BASIC.slice(6)]) {
      assert.ok(!flow.includes(secret) && !converted.stderr.includes(secret), `${secret}\n${flow}`);
    }
    assert.match(converted.stderr, /BASIC_PASSWORD/);
    const auths = flow.match(
      /auth:\n\s+basic:\n\s+username: ada\n\s+password: \$\{ENV\.BASIC_PASSWORD\}/g,
    );
    assert.equal(auths?.length, 3, flow);
    assert.ok(!/@127\.0\.0\.1|authorization:/i.test(flow), flow);
    const env = { BASE_URL: app.origin, BASIC_PASSWORD: PASSWORD };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(app.seen, ["PROPFIND / ok", "MKCOL /ada/books/ ok", "DELETE /ada/books/ ok"]);
    assert.ok(!run.stdout.includes(PASSWORD), run.stdout);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har --verify: the Basic password a step's auth reads stays asked for in the summary and the flow's header, not dropped as unused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-url-credentials-" });
  const app = standIn();
  try {
    await Deno.writeTextFile(`${dir}/r.har`, recording());
    const flowPath = `${dir}/flow.yaml`;
    const converted = await runCli(
      ["convert", "har", `${dir}/r.har`, "--verify", app.origin, "-o", flowPath],
      { env: { BASIC_PASSWORD: PASSWORD } },
    );
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Verified 3 steps against \S+: all pass\./);
    assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./);
    const flow = await Deno.readTextFile(flowPath);
    assert.match(flow, /^#\s+BASIC_PASSWORD\s/m, flow);
    assert.ok(!flow.includes(PASSWORD), flow);
    const env = { BASE_URL: app.origin, BASIC_PASSWORD: PASSWORD };
    const run = await runCli(["run", flowPath], { env });
    assert.equal(run.code, 0, run.stdout);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
