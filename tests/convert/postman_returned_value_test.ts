/**
 * A `pm.test` whose function `return`s a value (`return 'accessToken' in data.jwt;`): Postman
 * ignores the value, so the test fails only when working it out throws (`in` on what is not an
 * object or a list, a member of what is not there). Such a test was counted nowhere: the summary
 * said "0 untranslated" while Newman ran it (a Flask project's own collection has twelve). It is
 * now the checks of what would throw, under the test's name, and a test with no assertion call
 * whose body stays untranslated counts as one untranslated. A small server answers each shape.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const ANSWERS: Record<string, unknown> = {
  "/object": { data: { jwt: { accessToken: "t" } } },
  "/list": { error: { messages: ["wrong password"] } },
  "/text": { error: { messages: "wrong password" } },
  "/missing": { status: 400 },
};

function item(name: string, path: string, lines: string[]) {
  return {
    name,
    event: [{ listen: "test", script: { exec: lines } }],
    request: { method: "GET", url: `{{base}}${path}`, header: [] },
  };
}

const TOKEN = [
  'pm.test("Has an access token", function () {',
  "    const {data} = pm.response.json();",
  "    return 'refreshToken' in data.jwt;",
  "});",
];
/** A concise arrow returns its value too. */
const ARROW = [
  "const json = pm.response.json();",
  'pm.test("Has error message", () => "messages" in json.error.messages);',
];
const MESSAGES = [
  'pm.test("Has error message", function () {',
  "    const {error} = pm.response.json();",
  "    return 'messages' in error.messages;",
  "});",
];

Deno.test("postman returned value: a test fails only when working out its value throws, as in Newman", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json(ANSWERS[new URL(req.url).pathname] ?? {}),
  );
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Returned", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [
        item("object answer", "/object", TOKEN),
        item("list answer", "/list", MESSAGES),
        item("text answer", "/text", MESSAGES),
        item("missing answer", "/missing", MESSAGES),
        item("no jwt", "/list", TOKEN),
        item("arrow list", "/list", ARROW),
        item("arrow text", "/text", ARROW),
      ],
    }));
    assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /untranslated, from/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps.map((s: { name: string; status: string }) =>
      `${s.name} ${s.status}`
    );
    // `'refreshToken' in {accessToken}` is false, and the test still passes: the value is ignored.
    assert.deepEqual(steps, [
      "object_answer passed",
      "list_answer passed",
      "text_answer failed",
      "missing_answer failed",
      "no_jwt failed",
      "arrow_list passed",
      "arrow_text failed",
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman returned value: a test with no assertion call left untranslated counts as one untranslated", () => {
  const { summary } = convertPostman(JSON.stringify({
    info: { name: "Returned", schema: V21 },
    item: [
      item("helper", "/object", [
        'pm.test("Checked by a helper", function () { verify(pm.response.json()); });',
      ]),
      item("returned call", "/object", [
        'pm.test("Returned call", function () { return check(pm.response.json()); });',
      ]),
    ],
  }));
  assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [[0, 1], [0, 1]]);
});
