/**
 * A word that must not be in the response's text: `pm.expect(pm.response.text()).to.not.include('SQL')`,
 * also through a local (`const responseText = pm.response.text()`) and under a status test. A
 * demo API's security collection checks its answers that way; a flow has `contains` and no
 * negation of it, so the converter left every such check a comment. On text the negation is a
 * pattern finding the word nowhere: the checks hold on an answer without it and fail on one with
 * it, as Newman's do.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { pageChecks, runCollectionAgainst } from "../support/postman_run.ts";

/** A collection reading `/page`, its text and a header checked for words they must not hold. */
const collection = pageChecks([
  "pm.test('No database error exposed', function () {",
  "    const responseText = pm.response.text();",
  "    pm.expect(responseText).to.not.include('SQL');",
  "    pm.expect(responseText).to.not.include('mysql (');",
  "});",
  "pm.test('Script tags are not sent back', function () {",
  "    if (pm.response.code === 200) {",
  "        pm.expect(pm.response.text()).not.to.include('<script>');",
  "    }",
  "});",
  "pm.test('Header names no server', () => {",
  "    pm.expect(pm.response.headers.get('X-Note')).to.not.include('nginx');",
  "});",
]);

/** Serves `text` (and an `X-Note` header), converts and runs the collection: the run and flow. */
function runAgainst(text: string) {
  return runCollectionAgainst(
    collection,
    () => new Response(text, { headers: { "content-type": "text/plain", "x-note": "plain" } }),
  );
}

Deno.test("postman not.include on text: a pattern finding the word nowhere", async () => {
  const { run, flow } = await runAgainst("all good\nmysql is fine");
  assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
  assert.equal(flow.text.match(/matches:/g)?.length, 4, flow.text);
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
});

Deno.test("postman not.include on text: fails where the word is, on any line", async () => {
  const { run, flow } = await runAgainst("ok\nSQL error near <script>");
  assert.notEqual(run.code, 0, run.stdout + run.stderr + flow.text);
  const out = run.stdout + run.stderr;
  assert.match(out, /No database error exposed/);
  assert.match(out, /Script tags are not sent back/);
  assert.doesNotMatch(out, /✘ Header names no server/, out);
});

Deno.test("postman not.include: a JSON member, which may be a list, stays untranslated", () => {
  const c = pageChecks([
    "pm.test('no admin', () => pm.expect(pm.response.json().roles).to.not.include('admin'));",
  ])("http://127.0.0.1:9");
  const flow = convertPostman(JSON.stringify(c)).files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /# untranslated/, flow);
});
