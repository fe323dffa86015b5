/**
 * A request sent once per element of a list its own scripts hold: the pre-request script
 * starts from a literal list when the variable holds none, takes the next element
 * (`list.shift()`), sets the variable the body reads (`JSON.stringify(element)`) and keeps the
 * rest; the test script repeats the request (`setNextRequest` of its own name) while any is
 * left. A course's own collection sends its invalid payloads so. It was left a comment and
 * sent once, `{{current}}` as written. Now the step is a `foreach` over the list, each
 * element sent as the script sets it; a small server records the bodies and answers 400.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const PRE = [
  "let badPayloads = pm.environment.get('badPayloads');",
  "if (!badPayloads | badPayloads.length === 0) {",
  "    badPayloads = [{}, { name: 1 }, { name: 'Bad', year: 'dummy' }];",
  "}",
  "const currentBadPayload = badPayloads.shift();",
  "pm.environment.set('currentBadPayload', JSON.stringify(currentBadPayload));",
  "pm.environment.set('badPayloads', badPayloads);",
];
const TEST = [
  "pm.test('it should response 400 status code', () => {",
  "    pm.expect(pm.response).to.have.status(400);",
  "});",
  "const repeatRequestUntilDatasetEmpty = () => {",
  "    const badPayloads = pm.environment.get('badPayloads');",
  "    if (badPayloads && badPayloads.length > 0) {",
  "        pm.execution.setNextRequest('Add with Invalid Payload');",
  "    }",
  "};",
  "repeatRequestUntilDatasetEmpty();",
];

function collection(base: string): string {
  const event = (listen: string, exec: string[]) => ({ listen, script: { exec } });
  const post = (name: string, raw: string, events: unknown[]) => ({
    name,
    event: events,
    request: {
      method: "POST",
      url: `${base}/albums`,
      header: [],
      body: { mode: "raw", raw, options: { raw: { language: "json" } } },
    },
  });
  return JSON.stringify({
    info: { name: "Dataset", schema: V21 },
    item: [
      post("Add with Invalid Payload", "{{currentBadPayload}}", [
        event("prerequest", PRE),
        event("test", TEST),
      ]),
      post("Add", '{"name":"Good","year":2008}', []),
    ],
  });
}

Deno.test("postman dataset loop: the request is sent once per element, in order, as Newman sends it", async () => {
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json().catch(() => "not JSON");
    received.push(JSON.stringify(body));
    const ok = typeof body?.name === "string" && typeof body?.year === "number";
    return Response.json({ status: ok ? "success" : "fail" }, { status: ok ? 201 : 400 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(collection(`http://127.0.0.1:${server.addr.port}`));
    assert.deepEqual(summary.broken ?? [], []);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(received, [
      "{}",
      '{"name":1}',
      '{"name":"Bad","year":"dummy"}',
      '{"name":"Good","year":2008}',
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman dataset loop: a script that does more than take the next element is left as it was", () => {
  const pre = [...PRE, "pm.environment.set('other', badPayloads.length);"];
  const source = collection("http://127.0.0.1:9").replace(
    JSON.stringify(PRE),
    JSON.stringify(pre),
  );
  const { files } = convertPostman(source);
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.doesNotMatch(flow.text, /foreach/);
});

Deno.test("postman dataset loop: an element the server accepts fails its check, and the rest are still sent, as Newman sends them", async () => {
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json().catch(() => "not JSON");
    received.push(JSON.stringify(body));
    return Response.json({ status: "fail" }, { status: body?.name === 1 ? 201 : 400 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(collection(`http://127.0.0.1:${server.addr.port}`));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(received.length, 4, JSON.stringify(received));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman dataset loop: a list longer than a foreach's default bound gets its own, so the flow runs every element", async () => {
  const long = Array.from({ length: 1_200 }, (_, i) => `{ n: ${i} }`).join(", ");
  const source = collection("http://127.0.0.1:9").replace(
    "[{}, { name: 1 }, { name: 'Bad', year: 'dummy' }]",
    `[${long}]`,
  );
  const { files } = convertPostman(source);
  const flow = files.map((f) => f.text).join("\n");
  assert.match(flow, /^ {4}max_iterations: 1200$/m);
  const dir = await Deno.makeTempDir();
  try {
    for (const f of files) {
      await Deno.mkdir(`${dir}/${f.path}`.replace(/\/[^/]+$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    }
    const checked = await runCli(["validate", dir, "--no-env"]);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
