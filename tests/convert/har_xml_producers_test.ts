/**
 * `convert har` on an id an XML answer handed out (a WebDAV or SOAP-style
 * API, as Radicale's is XML: tests/real/radicale_har_test.ts): the
 * converter read ids from JSON bodies, pages, headers and frames, never
 * from an XML body, so a later request sent the recorded id and failed on
 * a fresh instance, which makes another. Now an element's text an XML
 * answer handed out, shaped like an id and never sent before, is captured
 * from the answer by a pattern on that element (namespace prefix or not)
 * wherever a later request sends it: its URL, a header, an XML body.
 * Widened to the class: a prefixed element (`<D:id>`), a text the client
 * sent first (its own, sent as recorded), a plain word (`<status>active`)
 * left alone.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const RECORDED = "job-8f3a2c91d4";
const LOCK = "opaquelocktoken:5c7e2a91-77d4";

/** A stand-in that makes a new job id and lock token on every create. */
function standIn() {
  const errors: string[] = [];
  let job = "";
  let lock = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    const xml = (text: string, status = 200) =>
      new Response(`<?xml version="1.0"?>${text}`, {
        status,
        headers: { "content-type": "application/xml; charset=utf-8" },
      });
    if (req.method === "POST" && url.pathname === "/jobs") {
      job = `job-${crypto.randomUUID().slice(0, 10)}`;
      lock = `opaquelocktoken:${crypto.randomUUID().slice(0, 13)}`;
      return xml(
        `<D:created xmlns:D="DAV:"><D:id>${job}</D:id><D:owner>ada</D:owner><lock>${lock}</lock><status>active</status><client>c-77aa12bb</client></D:created>`,
        201,
      );
    }
    const ok = url.pathname === `/jobs/${job}` &&
      (req.method !== "PUT" || (req.headers.get("lock-token") === `<${lock}>` &&
        body.includes(`<ref>${job}</ref>`)));
    if (!ok) errors.push(`${req.method} ${url.pathname} ${req.headers.get("lock-token")} ${body}`);
    return xml(`<job><state>${ok ? "done" : "unknown"}</state></job>`, ok ? 200 : 404);
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

function entry(method: string, path: string, status: number, answer: string, extra: object = {}) {
  return {
    startedDateTime: "2026-11-26T17:00:00.000Z",
    request: { method, url: `http://127.0.0.1:5232${path}`, headers: [], ...extra },
    response: {
      status,
      headers: [],
      content: { mimeType: "application/xml", text: `<?xml version="1.0"?>${answer}` },
    },
    _resourceType: "xhr",
  };
}

function recording(): string {
  const body = (text: string) => ({ postData: { mimeType: "application/xml", text } });
  const entries = [
    entry(
      "POST",
      "/jobs",
      201,
      `<D:created xmlns:D="DAV:"><D:id>${RECORDED}</D:id><D:owner>ada</D:owner><lock>${LOCK}</lock><status>active</status><client>c-77aa12bb</client></D:created>`,
      body("<job><client>c-77aa12bb</client></job>"),
    ),
    entry("GET", `/jobs/${RECORDED}`, 200, "<job><state>done</state></job>"),
    entry("PUT", `/jobs/${RECORDED}`, 200, "<job><state>done</state></job>", {
      headers: [{ name: "Lock-Token", value: `<${LOCK}>` }],
      ...body(`<job><ref>${RECORDED}</ref><status>active</status></job>`),
    }),
  ];
  return JSON.stringify({ log: { entries } });
}

Deno.test("convert har: an id an XML answer handed out is captured from that answer wherever a later request sends it, and the flow passes on an instance that makes another", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-xml-producers-" });
  const app = standIn();
  try {
    const { flow } = await convertHar(dir, recording());
    const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
    assert.ok(!sent.includes(RECORDED) && !sent.includes(LOCK), flow);
    // The client's own value and a plain word stay as recorded.
    assert.match(sent, /<client>c-77aa12bb<\/client>/);
    assert.match(sent, /<status>active<\/status>/);
    for (let run = 1; run <= 2; run++) {
      const done = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(done.code, 0, `${done.stdout}\n${flow}`);
    }
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
