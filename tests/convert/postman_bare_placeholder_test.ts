/**
 * `"year": {{newYear}}` in a raw JSON body, the variable "2010" (Postman's values are text):
 * Postman puts the text in the body's text, so the server reads a number. The body was written
 * as a map whose value is the variable, which is text, so the server got "2010" and refused the
 * book (a course's own collection sends its books so). A body with a placeholder outside a
 * JSON string, each such variable's known value a JSON number, boolean or null, is now sent as
 * the text it is, each placeholder's value put in, as Postman does; one whose value is not known
 * so (a script sets it) stays a map.
 * A small server wants numbers and booleans where the collection writes them bare.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman bare placeholder: {{x}} outside a JSON string is the variable's text in the body, as Postman sends it", async () => {
  const received: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    received.push(body);
    const ok = typeof body.year === "number" && typeof body.reading === "boolean" &&
      typeof body.name === "string" && body.name === "2010";
    return Response.json({ ok }, { status: ok ? 201 : 400 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(
      JSON.stringify({
        info: { name: "Bare", schema: V21 },
        item: [{
          name: "Add Book",
          event: [{
            listen: "test",
            script: { exec: ["pm.test('201', () => pm.response.to.have.status(201));"] },
          }],
          request: {
            method: "POST",
            url: `http://127.0.0.1:${server.addr.port}/books`,
            header: [{ key: "Content-Type", value: "application/json" }],
            body: {
              mode: "raw",
              raw:
                '{\n  "name": "{{newYear}}",\n  "year": {{newYear}},\n  "reading": {{reading}}\n}',
              options: { raw: { language: "json" } },
            },
          },
        }],
      }),
      JSON.stringify({
        name: "Local",
        values: [
          { key: "newYear", value: "2010", enabled: true },
          { key: "reading", value: "false", enabled: true },
        ],
      }),
    );
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(received, [{ name: "2010", year: 2010, reading: false }]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman bare placeholder: one whose value only a script gives stays a map's value", () => {
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Bare", schema: V21 },
    item: [{
      name: "Rate",
      request: {
        method: "POST",
        url: "http://127.0.0.1:9/ratings",
        header: [],
        body: { mode: "raw", raw: '{"rate": {{rating}}}', options: { raw: { language: "json" } } },
      },
    }],
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.match(flow.text, /\n {8}rate: /);
});

/**
 * A number or boolean a script sets as a literal (`set("n", 5)`, `set("b", true)`, a
 * `Math.floor(Math.random() * 2)` known as its least value) and the body writes bare: Newman puts
 * the value's text there, `{"n": 5, "b": true, "s": "x", "t": 12, "q": "5"}` (6.2.1, by hand), so
 * the server reads a number and a boolean; the map's value was the text "5" and "true".
 */
Deno.test("postman bare placeholder: a script's number or boolean is that JSON value in the body", async () => {
  const received: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push(await req.json());
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const set = [
      "set('n', 5)",
      "set('b', true)",
      "set('s', 'x')",
      "set('t', '12')",
    ];
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Set bare", schema: V21 },
      item: [{
        name: "Send",
        event: [{
          listen: "prerequest",
          script: { exec: set.map((s) => `pm.collectionVariables.${s};`) },
        }],
        request: {
          method: "POST",
          url: `http://127.0.0.1:${server.addr.port}/send`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: {
            mode: "raw",
            raw: '{"n": {{n}}, "b": {{b}}, "s": "{{s}}", "t": {{t}}, "q": "{{n}}"}',
          },
        },
      }],
    }));
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    // `{{t}}` is the text 12 put bare: a number to the server; `"{{n}}"` quoted stays text.
    assert.deepEqual(received, [{ n: 5, b: true, s: "x", t: 12, q: "5" }]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
