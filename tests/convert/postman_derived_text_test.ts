/**
 * A pre-request script that derives a value from another by text operations
 * (`code.charAt(code.length - 1) + 1`, `slice`, `substring`, `toUpperCase()`, a template of
 * them, variables joined with literals) was left a comment: the request sent `{{next}}` as
 * written and the summary did not say which line. Of a variable the collection's files give
 * (no secret, no environment variable), such a value is worked out now from the files' text, as
 * Newman works it out from the same files; variables joined with literals stay the flow's vars;
 * one derived from a secret (known only when the flow runs) is named in the summary with the
 * script's lines and the requests that read it; a secret's value a script line writes out is
 * masked wherever the line is shown.
 *
 * Newman 6.2.1 (by hand, against a server that printed the body) sent for this collection
 * `{"next":"31","prefix":"ABC","rest":"123-bc","full":"Ada Lovelace","tag":"lovelace-6","newPassword":"!1"}`.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SCRIPT = [
  "const code = pm.collectionVariables.get('code');",
  "pm.collectionVariables.set('next', code.charAt(code.length - 1) + 1);",
  "pm.collectionVariables.set('prefix', code.slice(0, 3).toUpperCase());",
  "pm.collectionVariables.set('rest', code.substring(3) + '-' + code.substr(1, 2));",
  "pm.collectionVariables.set('full', pm.collectionVariables.get('first') + ' ' + pm.collectionVariables.get('last'));",
  "pm.collectionVariables.set('tag', `${pm.collectionVariables.get('last').toLowerCase()}-${code.length}`);",
  "const pw = pm.collectionVariables.get('password');",
  "pm.collectionVariables.set('newPassword', pw.charAt(pw.length - 1) + 1);",
  // A secret's value written out in a script: quoted masked, in the summary and beside the step.
  "pm.collectionVariables.set('hint', CryptoJS.SHA256('Pa55word!').toString());",
];

const FIELDS = ["next", "prefix", "rest", "full", "tag", "newPassword", "hint"];

/** A sign-up with a Basic auth (so `password` is a secret) whose script derives the body's values. */
function collection(base: string) {
  const raw = `{${FIELDS.map((f) => `"${f}": "{{${f}}}"`).join(", ")}}`;
  return {
    info: { name: "Derived", schema: V21 },
    variable: [
      { key: "base", value: base },
      { key: "code", value: "abc123" },
      { key: "first", value: "Ada" },
      { key: "last", value: "Lovelace" },
      { key: "password", value: "Pa55word!" },
    ],
    item: [{
      name: "Sign up",
      event: [{ listen: "prerequest", script: { exec: SCRIPT } }],
      request: {
        method: "POST",
        url: "{{base}}/signup",
        auth: {
          type: "basic",
          basic: [{ key: "username", value: "ada" }, { key: "password", value: "{{password}}" }],
        },
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw },
      },
    }],
  };
}

Deno.test("postman derived text: a value a script cuts from a file's variable is sent as Newman's", () =>
  withBodySink(async (base, seen, dir) => {
    const { files, summary } = convertPostman(JSON.stringify(collection(base)));
    const text = formatPostmanSummary(summary, dir);
    // Only the value derived from the secret (and the hash) is named, with the lines that make it.
    const named = text.split("\n").filter((l) => l.startsWith("Not translated"));
    assert.equal(named.length, 2, text);
    assert.match(named[1], /\(`pm\.collectionVariables\.set\('hint', CryptoJS\.SHA256\('\*\*\*'\)/);
    assert.match(named[0], /sets \{\{newPassword\}\} in a way flowrun cannot express/);
    assert.match(
      named[0],
      /\(`const pw = pm\.collectionVariables\.get\('password'\); pm\.collectionVariables\.set\('newPassword', pw\.charAt/,
    );
    assert.match(named[0], /read by Sign up\.$/);
    assert.doesNotMatch(text + files.map((f) => f.text).join(""), /Pa55word/);
    // Joined variables stay the flow's vars: a value given when running is sent.
    assert.match(files[0].text, /full: \$\{vars\.first\} \$\{vars\.last\}/, files[0].text);
    const { run, flow } = await runConverted(files, dir, { PASSWORD: "Pa55word!", BASE: base });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    const { newPassword, hint, ...rest } = seen[0];
    assert.deepEqual(rest, {
      next: "31",
      prefix: "ABC",
      rest: "123-bc",
      full: "Ada Lovelace",
      tag: "lovelace-6",
    });
    // Sent as written, as the summary says (Newman sent "!1").
    assert.equal(newPassword, "{{newPassword}}");
    assert.equal(hint, "{{hint}}");
  }));
