/**
 * Two recordings of one journey whose page posts a whole form, serialized, as
 * one field's value (OCS Inventory 2.11, issue 52: its tables' XHR sent
 * `ocs[]=CSRF_6=<the page's token>&select_col…=default&…`). One recording
 * captures the token inside that value from the page's hidden field; with a
 * second recording, where the value differs only by the token each page
 * held, the flow sent `CSRF_6=${RUN_ID}&…`, a made-up token the server never
 * issued. A form-encoded value is compared with its partner field by field,
 * as a JSON one is leaf by leaf, so the token differs on its own, and a value
 * differing only by what answers produced stays captured.
 *
 * One recording alone kept no page for it: the page that held the token was
 * kept only when a later request sent one of its values whole, and the token
 * was sent inside the serialized form, so the flow sent the recorded token.
 * A form value that is itself a form counts its fields as sent values too.
 *
 * The server issues a token with each page and answers the table's post only
 * with a token it issued.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { formExchange, fullExchange } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:18432";

function page(token: string): string {
  return `<html><body><form name='rows' id='rows' method='POST'>` +
    `<input type='hidden' name='tok_6' id='tok_6' value='${token}'>` +
    `<select name='rows_length'><option value='10'>10</option></select></form></body></html>`;
}

/** The table's post: the whole form, serialized, as the one field `state[]`. */
function tablePost(token: string): string {
  const serialized = `tok_6=${token}&rows_length=10&pick=&drop=`;
  return `draw=1&${new URLSearchParams({ "state[]": serialized })}`;
}

function startTables() {
  const issued = new Set<string>();
  const refused: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") {
      const token = crypto.randomUUID().replaceAll("-", "").slice(0, 32);
      issued.add(token);
      return new Response(page(token), { headers: { "content-type": "text/html" } });
    }
    const body = new URLSearchParams(await req.text());
    const inner = new URLSearchParams(body.get("state[]") ?? "");
    if (!issued.has(inner.get("tok_6") ?? "")) {
      refused.push(inner.get("tok_6") ?? "");
      return Response.json({ error: "unknown token" }, { status: 403 });
    }
    return Response.json({ rows: [], draw: 1 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

function recording(token: string): string {
  const entries = [
    fullExchange("GET", `${RECORDED}/rows`, undefined, page(token)),
    formExchange("POST", `${RECORDED}/rows/table`, tablePost(token), '{"rows":[],"draw":1}'),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test" }, entries } });
}

Deno.test("two recordings: a token inside a serialized form sent as one field stays captured", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-two-serialized-" });
  const tables = startTables();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording("3f9c2a7be18d4c06a5e2f17b9d0c4e8a"));
    await Deno.writeTextFile(`${dir}/b.har`, recording("8d41e0c7f2a94b5e9c3d6a1f0b7e2d95"));
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/a.har`,
      `${dir}/b.har`,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(flow, /RUN_ID|RANDOM|3f9c2a7b/, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: tables.origin } });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
    assert.deepEqual(tables.refused, []);
  } finally {
    await tables.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("one recording: the page whose token a serialized form sends is kept and captured", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-one-serialized-" });
  const tables = startTables();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording("3f9c2a7be18d4c06a5e2f17b9d0c4e8a"));
    const converted = await runCli(["convert", "har", `${dir}/a.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(flow, /3f9c2a7b/, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: tables.origin } });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
    assert.deepEqual(tables.refused, []);
  } finally {
    await tables.close();
    await Deno.remove(dir, { recursive: true });
  }
});
