/**
 * `convert har` on chrome-har's recording of JSON bodies that make no name/value pair at all.
 * chrome-har 1.3.1 keeps a JSON body only as `toNameValuePairs(JSON.parse(text))`: one pair per
 * key, a list as one pair per item. `{}`, `[]` and `{"tags":[]}` have no key with an item, so
 * the entry holds `params: []`, no text, and the bytes sent (`bodySize`, `Content-Length`).
 * The conversion read that as "not in the HAR: sent without a body", and a server that parses
 * JSON strictly (Fastify's "Body cannot be empty when content-type is set to
 * 'application/json'") answered 400 to every such step.
 *
 * What the converter does (har_no_pairs.ts): such a body is an empty object, or an empty list
 * when the recording's other bodies for that endpoint are lists; with more bytes sent than two,
 * the member other requests send as a list is put back empty when that gives the size sent
 * (har_dropped_lists.ts). With a second recording, the body the other form kept at the same
 * place tells too (Playwright's form keeps the text). An empty object no evidence tells from an
 * empty list is said in the summary. A body of no bytes stays no body.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:8093";

/** What chrome-har 1.3.1 writes for a JSON body (`toNameValuePairs`), keys of a list included. */
function pairs(body: unknown): { name: string; value: unknown }[] {
  return Object.keys(body as object).flatMap((name) => {
    const v = (body as Record<string, unknown>)[name];
    return (Array.isArray(v) ? v : [v]).map((value) => ({ name, value }));
  });
}

/** A chrome-har entry for `method path` sending `body` (no body: `undefined`). */
function entry(
  method: string,
  path: string,
  body: unknown,
  spelling: "bodySize" | "both" | "playwright",
) {
  const text = body === undefined ? "" : JSON.stringify(body);
  const size = new TextEncoder().encode(text).length;
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 2,
    request: {
      method,
      url: `${ORIGIN}${path}`,
      httpVersion: "HTTP/1.1",
      headers: [
        { name: "Content-Type", value: "application/json" },
        ...(spelling === "both" ? [{ name: "Content-Length", value: String(size) }] : []),
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: size,
      postData: body === undefined || spelling === "playwright"
        ? { mimeType: "application/json", params: [], text }
        : { mimeType: "application/json", params: pairs(body) },
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      content: { mimeType: "application/json", size: 11, text: '{"ok":true}' },
      redirectURL: "",
      headersSize: -1,
      bodySize: 11,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 1 },
  };
}

/** A server that parses JSON as Fastify does and wants each endpoint's shape; it keeps what came. */
function strictServer() {
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    // Compared as JSON: the flow may lay it out otherwise than the page did.
    let shown = text;
    try {
      if (text !== "") shown = JSON.stringify(JSON.parse(text));
    } catch {
      // Not JSON: kept as it came, and refused below.
    }
    received.push(`${req.method} ${path} ${shown}`);
    if (path === "/api/ping") return Response.json({ ok: text === "" });
    if (text === "") {
      return Response.json({
        message: "Body cannot be empty when content-type is set to 'application/json'",
      }, { status: 400 });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return Response.json({ message: "Unexpected token" }, { status: 400 });
    }
    const fits = path.endsWith("/order")
      ? Array.isArray(body)
      : path.endsWith("/tags")
      ? Array.isArray((body as { tags?: unknown })?.tags)
      : typeof body === "object" && !Array.isArray(body);
    return fits ? Response.json({ ok: true }) : Response.json({ ok: false }, { status: 400 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, received, close: () => server.shutdown() };
}

async function convert(dir: string, entries: unknown[], second?: unknown[]) {
  const har = (entries: unknown[]) =>
    JSON.stringify({ log: { version: "1.2", creator: { name: "chrome-har" }, entries } });
  await Deno.writeTextFile(`${dir}/ui.har`, har(entries));
  if (second) await Deno.writeTextFile(`${dir}/ui2.har`, har(second));
  const files = second ? [`${dir}/ui.har`, `${dir}/ui2.har`] : [`${dir}/ui.har`];
  const out = await runCli(["convert", "har", ...files, "-o", `${dir}/ui.yaml`]);
  assert.equal(out.code, 0, out.stderr);
  return { summary: out.stderr, flow: await Deno.readTextFile(`${dir}/ui.yaml`) };
}

for (const spelling of ["bodySize", "both"] as const) {
  Deno.test(`convert har: chrome-har's bodies of no pairs are sent as the page sent them (${spelling}); twice`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-empty-" });
    const app = strictServer();
    try {
      const sent: [string, string, unknown][] = [
        ["POST", "/api/reports/run", {}],
        ["PUT", "/api/boards/1/order", []],
        ["PUT", "/api/boards/2/order", ["c2", "c1"]],
        ["PUT", "/api/notes/1/tags", { tags: [] }],
        ["PUT", "/api/notes/2/tags", { tags: ["a", "b"] }],
        ["POST", "/api/ping", undefined],
      ];
      const { summary, flow } = await convert(
        dir,
        sent.map(([m, p, b]) => entry(m, p, b, spelling)),
      );
      assert.doesNotMatch(summary, /sent without a body|could be rebuilt/, summary);
      // The reports call is the one no other body of its endpoint tells apart: said, not guessed.
      assert.match(
        summary,
        /POST http:\/\/127\.0\.0\.1:8093\/api\/reports\/run[^\n]*\{\}[^\n]*\[\]/,
        summary,
      );
      assert.doesNotMatch(summary, /order[^\n]*\{\}/, summary);
      for (const n of [1, 2]) {
        app.received.length = 0;
        const run = await runCli(["run", `${dir}/ui.yaml`], { env: { BASE_URL: app.origin } });
        assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
        assert.deepEqual(
          app.received,
          sent.map(([m, p, b]) => `${m} ${p} ${b === undefined ? "" : JSON.stringify(b)}`),
          `run ${n}\n${flow}`,
        );
      }
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har: chrome-har's empty list is told from an empty object by the other form of the journey; twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-empty-two-" });
  const app = strictServer();
  try {
    const sent: [string, string, unknown][] = [
      ["PUT", "/api/boards/1/order", []],
      ["POST", "/api/reports/run", {}],
    ];
    const { summary, flow } = await convert(
      dir,
      sent.map(([m, p, b]) => entry(m, p, b, "both")),
      sent.map(([m, p, b]) => entry(m, p, b, "playwright")),
    );
    // The other form said which: nothing left to check by hand.
    assert.doesNotMatch(summary, /\{\} or an empty list/, summary);
    for (const n of [1, 2]) {
      app.received.length = 0;
      const run = await runCli(["run", `${dir}/ui.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
      assert.deepEqual(app.received, sent.map(([m, p, b]) => `${m} ${p} ${JSON.stringify(b)}`));
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
