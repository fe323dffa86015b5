/**
 * `convert har` on a single-page admin that keeps the typed login in a
 * cookie of its own script, as RabbitMQ's management UI does
 * (tests/real/rabbitmq_har_test.ts): the page stores base64 of
 * `user:password`, percent-encoded twice, in its cookie `m`
 * (`2258:YWRh…%253D%253D`) and builds `Authorization: Basic …` from it for
 * every API call; the browser attaches the cookie to every request, also to
 * the page's templates, which need no login. No answer set the cookie, so
 * it was asked for as SESSION_COOKIE, a variable the user would have to
 * build from their password by hand. Evidence, whatever the names: the
 * cookie's value holds the Basic credential the recording's Authorization
 * header sends, so it is the page's copy of that login, which the step's
 * `auth: basic` sends already: it is left out, and the summary says so.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

const PASSWORD = "Quill-Harbor-77";
const BASIC = btoa(`ada:${PASSWORD}`);
/** The page's cookie: a key, then the credential percent-encoded twice (`=` as `%253D`). */
const COOKIE = `2258:${encodeURIComponent(encodeURIComponent(BASIC))}`;

/** A stand-in whose API wants the Basic login and whose templates want nothing. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (!path.startsWith("/api/")) return new Response("<div>layout</div>");
    if (req.headers.get("authorization") !== `Basic ${BASIC}`) {
      return Response.json({ error: "not_authorised" }, { status: 401 });
    }
    return Response.json({ name: "ada", tags: ["administrator"] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function recording(): string {
  const at = "http://127.0.0.1:4242";
  const login: [string, string] = ["Authorization", `Basic ${BASIC}`];
  const cookie: [string, string] = ["Cookie", `m=${COOKIE}`];
  const me = { name: "ada", tags: ["administrator"] };
  const har = JSON.parse(harOf([
    { url: `${at}/api/whoami`, headers: [login, cookie], json: me },
    {
      url: `${at}/js/tmpl/layout.ejs?0.5038850306924743`,
      headers: [cookie],
      html: "<div>layout</div>",
    },
    { url: `${at}/api/overview`, headers: [login, cookie], json: me },
    {
      url: `${at}/js/tmpl/overview.ejs?0.6212734270442409`,
      headers: [cookie],
      html: "<div>overview</div>",
    },
  ]));
  // The page's script fetches each template, answered `application/octet-stream`.
  for (const entry of har.log.entries) {
    if (entry.request.url.includes(".ejs?")) {
      entry.response.content.mimeType = "application/octet-stream";
    }
  }
  return JSON.stringify(har);
}

Deno.test("convert har: a cookie the page's script keeps its Basic login in is left out, only the password is asked, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-cookie-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./, flow);
    assert.ok(!/cookie:/i.test(flow), flow);
    for (const literal of [PASSWORD, BASIC, COOKIE, encodeURIComponent(BASIC)]) {
      assert.ok(!flow.includes(literal), `${literal}\n${flow}`);
    }
    assert.match(converted.stderr, /holds the Basic credential/, converted.stderr);
    const env = { BASE_URL: app.origin, BASIC_PASSWORD: PASSWORD };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
