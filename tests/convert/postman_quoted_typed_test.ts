/**
 * A placeholder quoted in a raw JSON body (`"totalprice": "{{totalprice}}"`) whose value is not
 * text: a data file row's number or boolean, a value a script captured from an answer, a number
 * a script made. Newman puts each value's text into the raw body, so the server reads a JSON
 * string ("123"); a flow's map value that is exactly one expression keeps the value's type and
 * sent the number 123 (a learner's restful-booker suite, measured by hand). Newman 6.2.1, run by
 * hand on this collection against this echo server, sent
 * `{"totalprice": "123", "paid": "true", "name": "a", "bare": 123}` and then `{"id": "5"}`; the
 * flow now sends the same values, each of the same JSON type. A `pm.sendRequest` body made by
 * `JSON.stringify({ totalprice: pm.iterationData.get("totalprice") })` keeps the row's number, as
 * JavaScript writes it (the same suite's login and create; Newman sent `"totalprice":111`).
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function post(name: string, raw: string, exec: string[] = []) {
  return {
    name,
    event: [{ listen: "test", script: { exec } }],
    request: {
      method: "POST",
      url: "{{base}}/post",
      header: [{ key: "Content-Type", value: "application/json" }],
      body: { mode: "raw", raw, options: { raw: { language: "json" } } },
    },
  };
}

async function sentBodies(item: unknown[], rows?: unknown[]): Promise<unknown[]> {
  const bodies: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    bodies.push(await req.json());
    return Response.json({ json: { id: 5, price: 9.5, ok: true, name: "x" } });
  });
  const dir = await Deno.makeTempDir();
  try {
    const collection = JSON.stringify({
      info: { name: "Typed", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }],
      item,
    });
    const data = rows && { path: "rows.json", text: JSON.stringify(rows) };
    const { files } = convertPostman(collection, undefined, undefined, data);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    return bodies;
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("postman quoted placeholder: a data row's number and boolean are sent as the text Newman puts in", async () => {
  const raw = '{"totalprice": "{{totalprice}}", "paid": "{{paid}}", "name": "{{name}}", ' +
    '"bare": {{totalprice}}}';
  const bodies = await sentBodies([post("Create", raw)], [{
    totalprice: 123,
    paid: true,
    name: "a",
  }]);
  assert.deepEqual(bodies, [{ totalprice: "123", paid: "true", name: "a", bare: 123 }]);
});

Deno.test("postman quoted placeholder: a value captured from an answer or made by a script is sent as text", async () => {
  const bodies = await sentBodies([
    post("Create", '{"name": "a"}', [
      "const j = pm.response.json();",
      "pm.environment.set('id', j.json.id);",
      "pm.environment.set('price', j.json.price);",
      "pm.environment.set('ok', j.json.ok);",
      "pm.environment.set('stamp', Date.now());",
    ]),
    post(
      "Read",
      '{"id": "{{id}}", "price": "{{price}}", "ok": "{{ok}}", "at": "{{stamp}}", "n": {{id}}}',
    ),
  ]);
  const read = bodies[1] as Record<string, unknown>;
  assert.deepEqual({ ...read, at: typeof read.at }, {
    id: "5",
    price: "9.5",
    ok: "true",
    at: "string",
    n: 5,
  });
  assert.match(read.at as string, /^\d{13}$/);
});

Deno.test("postman quoted placeholder: a body whose quoted values are all text stays a map", () => {
  const collection = JSON.stringify({
    info: { name: "Text", schema: V21 },
    variable: [{ key: "base", value: "http://127.0.0.1:9" }, { key: "who", value: "ann" }],
    item: [post("Create", '{"name": "{{who}}", "n": 1}')],
  });
  const flow = convertPostman(collection).files.find((f) => f.path.endsWith(".yaml"))!;
  assert.match(flow.text, /body:\n {8}name: \$\{vars\.who\}\n {8}"n": 1\n/, flow.text);
});

Deno.test("postman quoted placeholder: a pm.sendRequest body JSON.stringify makes keeps each value's type", async () => {
  const pre = [
    "pm.sendRequest({",
    "  url: pm.variables.get('base') + '/post', method: 'POST',",
    "  header: { 'Content-Type': 'application/json' },",
    "  body: { mode: 'raw', raw: JSON.stringify({",
    "    totalprice: pm.iterationData.get('totalprice'), name: pm.iterationData.get('name') }) },",
    "}, (err, res) => {});",
  ];
  const item = {
    ...post("Book", '{"name": "{{name}}"}'),
    event: [{ listen: "prerequest", script: { exec: pre } }],
  };
  const bodies = await sentBodies([item], [{ totalprice: 111, name: "a" }]);
  assert.deepEqual(bodies, [{ totalprice: 111, name: "a" }, { name: "a" }]);
});
