/**
 * `pm.sendRequest` made awaitable: a pre-request script declares a function that returns a
 * `new Promise` around `pm.sendRequest(req, (err, res) => err ? reject(err) : resolve(res))`,
 * then awaits it from an async function it calls at once
 * (`(async function main() { const r = await sendRequest(\`${baseUrl}/reset\`); })()`).
 * Postman sends that request, waits for it, then sends the item's own. The whole script was a
 * comment, so none was sent (a university project's own collection resets its database so
 * before each of its 94 requests, and 12 of its checks read what the reset restores). Each call
 * is now a request of its own just before the item's, as a plain `pm.sendRequest` is.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** The pre-request script, in the shape the project writes it. */
const RESET = [
  "function sendRequest(req) {",
  "    return new Promise((resolve, reject) => {",
  "        pm.sendRequest(req, (err, res) => {",
  "            if (err) {",
  "                return reject(err);",
  "            }",
  "            return resolve(res);",
  "        })",
  "    });",
  "}",
  "",
  "(async function main() {",
  '    const baseUrl = pm.globals.get("base_url");',
  "    const result = await sendRequest(`${baseUrl}/reset`);",
  "    console.log('Reset', result);",
  "})();",
];

Deno.test("postman promised sendRequest: the awaited request is sent before each item's own, in order", async () => {
  const seen: string[] = [];
  let stock = 1;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/api/reset") stock = 1;
    else if (req.method === "POST") stock--;
    return Response.json({ stock });
  });
  const base = `http://127.0.0.1:${server.addr.port}/api`;
  const item = (name: string, method: string) => ({
    name,
    event: [
      { listen: "prerequest", script: { exec: RESET } },
      {
        listen: "test",
        script: {
          exec: ["pm.test('one left', () => pm.expect(pm.response.json().stock).to.eql(0));"],
        },
      },
    ],
    request: { method, url: "{{base_url}}/stock", header: [] },
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(
      JSON.stringify({
        info: { name: "Reset", schema: V21 },
        item: [item("take one", "POST"), item("take another", "POST")],
      }),
      undefined,
      JSON.stringify({ values: [{ key: "base_url", value: base, enabled: true }] }),
    );
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, [
      "GET /api/reset",
      "POST /api/stock",
      "GET /api/reset",
      "POST /api/stock",
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman promised sendRequest: a wrapper whose callback does more than settle stays a comment", () => {
  const exec = RESET.map((l) =>
    l.replace("return resolve(res);", "pm.globals.set('x', 1); return resolve(res);")
  );
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Reset", schema: V21 },
    item: [{
      name: "take one",
      event: [{ listen: "prerequest", script: { exec } }],
      request: { method: "POST", url: "http://127.0.0.1:9/stock", header: [] },
    }],
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /# untranslated/, flow);
  assert.doesNotMatch(flow, /pm\.sendRequest\)/, flow);
});
