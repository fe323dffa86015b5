/**
 * `pm.environment.set("item_id", json.id.toString())` (or `String(json.id)`): a Django course
 * project's own collection keeps every created id so, then sends it in later paths and compares
 * it with list members as text. The set was named "in a way flowrun cannot express", so every
 * later request sent `{{item_id}}` as written, empty (`/projects//issues/`, all 404). Postman
 * keeps the number's text; a capture `as: string` keeps the same text, so later paths and bodies
 * send what Newman sends. A small server answers a numeric id, then records what it is sent.
 * The same collection then checks `pm.expect(json.id.toString()).to.equal(pm.environment.get(…))`:
 * a part's text against the variable it kept as text, which was a comment (the variable's type is
 * known only when the flow runs); a variable captured `as: string` is text, so the check says it.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const variable = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}` });

Deno.test("postman set text: a part's toString() or String() set is a capture as: string", () => {
  for (const spelled of ["json.id.toString()", "String(json.id)"]) {
    const t = translateScript(
      `var json = pm.response.json(); pm.environment.set("item_id", ${spelled});`,
      variable,
    );
    assert.deepEqual(t.untranslated, [], spelled);
    assert.deepEqual(
      t.captures.map((c) => [c.name, c.path, c.as]),
      [["item_id", "$.json.id", "string"]],
      spelled,
    );
  }
});

Deno.test("postman set text: under the script's own if, the capture keeps its condition", () => {
  const t = translateScript(
    [
      "var json = pm.response.json();",
      "if (json && json.id) { pm.collectionVariables.set('item_id', json.id.toString()); }",
    ].join("\n"),
    variable,
  );
  assert.deepEqual(t.untranslated, []);
  assert.equal(t.captures[0]?.as, "string");
  assert.ok(t.captures[0]?.guarded, JSON.stringify(t.captures));
});

Deno.test("postman set text: later requests send the id's text in the path and the body", async () => {
  const seen: { path: string; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push({ path: new URL(req.url).pathname, body: await req.text() });
    return Response.json({ id: 41 }, { status: req.method === "POST" ? 201 : 200 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const test = (exec: string[]) => [{ listen: "test", script: { exec } }];
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Set text", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }, {
        key: "item_id",
        value: "",
      }],
      item: [
        {
          name: "create",
          event: test([
            "var json = pm.response.json();",
            "if (json && json.id) { pm.environment.set('item_id', json.id.toString()); }",
          ]),
          request: { method: "POST", url: "{{base}}/items" },
        },
        {
          name: "child",
          request: {
            method: "POST",
            url: "{{base}}/items/{{item_id}}/parts",
            header: [{ key: "Content-Type", value: "application/json" }],
            body: { mode: "raw", raw: '{"parent": "{{item_id}}", "n": {{item_id}}}' },
          },
        },
      ],
    }));
    assert.equal(summary.reports.reduce((n, r) => n + r.untranslated, 0), 0);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen.map((s) => s.path), ["/items", "/items/41/parts"]);
    // The text where the collection quotes it, the number where it does not, as Postman sends.
    assert.deepEqual(JSON.parse(seen[1].body), { parent: "41", n: 41 });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman set text: a part's text equal to a variable kept as text is a filter", () => {
  const said =
    "var json = pm.response.json(); pm.test('same', () => { pm.expect(json.id.toString()).to.equal(pm.environment.get('item_id')); });";
  const text = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}`, text: true });
  const t = translateScript(said, text);
  assert.deepEqual(t.untranslated, []);
  assert.deepEqual(t.checks.map((c) => "cond" in c ? c.cond : c), [{
    path: "$.json[?$.json.id == '${vars.item_id}' || $.json.id == ${vars.item_id}]",
    op: "exists",
    value: true,
  }]);
  // A variable of a type known only when the flow runs (a number captured as it is) stays a comment.
  assert.equal(translateScript(said, variable).translated, 0);
});

Deno.test("postman set text: the kept id's text checked against each answer, Newman's verdicts", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const other = new URL(req.url).pathname.startsWith("/other");
    return Response.json({ id: other ? 42 : 41 }, { status: req.method === "POST" ? 201 : 200 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const test = (exec: string[]) => [{ listen: "test", script: { exec } }];
    const same = (name: string, path: string) => ({
      name,
      event: test([
        "var json = pm.response.json();",
        "pm.test('same id', function () {",
        "    pm.expect(json.id.toString()).to.equal(pm.environment.get('item_id'));",
        "});",
      ]),
      request: { method: "GET", url: `{{base}}${path}/{{item_id}}` },
    });
    const report = await runCollection({
      info: { name: "Set text compared", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [
        {
          name: "create",
          event: test(["pm.environment.set('item_id', pm.response.json().id.toString());"]),
          request: { method: "POST", url: "{{base}}/items" },
        },
        same("read", "/items"),
        same("another", "/other"),
      ],
    }, dir);
    const verdicts = report.flows[0].steps.flatMap((
      s: { assertions: { passed: boolean; name?: string }[] },
    ) => s.assertions.filter((a) => a.name === "same id").map((a) => a.passed));
    assert.deepEqual(verdicts, [true, false]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
