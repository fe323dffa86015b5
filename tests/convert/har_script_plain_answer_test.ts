/**
 * `convert har` on a script's call that its server answered with a plain
 * word labelled `text/html`: Express's `res.send("OK")` sends any string as
 * `text/html`. Federated Wiki's sign-out (measured by hand,
 * docs/real-servers-har.md) is the page's `fetch('/logout')` answered `OK`
 * that way, and it was dropped as an HTML document: the flow never signed
 * out, and anything the recording showed refused after it was answered.
 *
 * What the converter does (html_answer.ts): a page is what the browser
 * navigated to, or a `text/html` answer that is markup; a fetch or XHR
 * whose `text/html` answer is no markup (a word, nothing) is the API's,
 * kept as a step. A script's call answered with markup (a fragment) is still
 * a page's. Each kind of call runs twice on one server the test starts.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const COOKIE = "sid=s3ss10nRecorded0123456789";

/** A HAR entry answered `status` `text` under `mime`, sent by a script of `type`. */
function entry(
  method: string,
  url: string,
  status: number,
  text: string,
  mime: string,
  type: string,
  extra: { body?: string; setCookie?: string; cookie?: boolean } = {},
) {
  return {
    startedDateTime: "2026-11-30T00:30:00.000Z",
    request: {
      method,
      url,
      headers: [
        ...(extra.cookie ? [{ name: "Cookie", value: COOKIE }] : []),
        ...(extra.body ? [{ name: "Content-Type", value: "application/json" }] : []),
      ],
      ...(extra.body ? { postData: { mimeType: "application/json", text: extra.body } } : {}),
    },
    response: {
      status,
      headers: extra.setCookie ? [{ name: "Set-Cookie", value: `${extra.setCookie}; Path=/` }] : [],
      content: { mimeType: mime, text },
    },
    _resourceType: type,
  };
}

/** Sign in, read, sign out by a script's call answered `answer`, read again (refused). */
function recording(origin: string, type: string, answer: string): string {
  const html = "text/html; charset=utf-8";
  const json = "application/json";
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", `${origin}/api/login`, 200, '{"ok":true}', json, type, {
          body: '{"user":"ann"}',
          setCookie: COOKIE,
        }),
        entry("GET", `${origin}/api/notes`, 200, '[{"text":"High water"}]', json, type, {
          cookie: true,
        }),
        entry("GET", `${origin}/logout`, 200, answer, html, type, { cookie: true }),
        entry("GET", `${origin}/api/notes`, 403, "not signed in", html, type, { cookie: true }),
      ],
    },
  });
}

/** The server: a session per sign-in, ended by `/logout` answered as Express answers a string. */
function server(answer: string) {
  const sessions = new Set<string>();
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const sid = /sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const html = { "content-type": "text/html; charset=utf-8" };
    if (url.pathname === "/api/login") {
      const id = crypto.randomUUID();
      sessions.add(id);
      return Response.json({ ok: true }, { headers: { "set-cookie": `sid=${id}; Path=/` } });
    }
    if (!sessions.has(sid)) return new Response("not signed in", { status: 403, headers: html });
    if (url.pathname === "/logout") {
      sessions.delete(sid);
      return new Response(answer, { headers: html });
    }
    return Response.json([{ text: "High water" }]);
  });
}

for (const type of ["fetch", "xhr"]) {
  for (const answer of ["OK", "Signed out."]) {
    const said = `"${answer}"`;
    Deno.test(`convert har: a ${type} answered ${said} as text/html is a step`, async () => {
      const s = server(answer);
      const origin = `http://127.0.0.1:${s.addr.port}`;
      const dir = await Deno.makeTempDir();
      try {
        const { converted, flow } = await convertHar(dir, recording(origin, type, answer));
        assert.doesNotMatch(converted.stderr, /Dropped as HTML document/, converted.stderr);
        assert.match(flow, /url: \$\{vars\.base_url\}\/logout/, flow);
        for (const run of [1, 2]) {
          const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: origin } });
          assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
        }
      } finally {
        await s.shutdown();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
}

Deno.test("convert har: a script's call answered with markup is still a page's", async () => {
  const origin = "http://wiki.test";
  const har = recording(origin, "xhr", "<div class='bye'>Signed out</div>");
  const dir = await Deno.makeTempDir();
  try {
    const { converted } = await convertHar(dir, har);
    assert.match(
      converted.stderr,
      /Dropped as HTML document on the app's hosts \(1\): GET \/logout/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
