/**
 * `pm.environment.unset("x")` (and its collection, global and legacy spellings) was
 * ignored: a later request still sent the value set before, where Newman sends
 * `{{x}}` as written (the variable is gone). Now an unset is translated: later
 * requests send `{{x}}` and later scripts read `undefined`; where another scope still
 * holds `x` after the unset, its value is read (postman_unset_uncover_test.ts).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const script = (listen: string, ...exec: string[]) => ({ listen, script: { exec } });

function collection(
  items: { name: string; url: string; event: unknown[] }[],
  variable: unknown[] = [],
) {
  return JSON.stringify({
    info: { name: "Unset", schema: V21 },
    variable,
    item: items.map((i) => ({
      name: i.name,
      event: i.event,
      request: { method: "GET", url: `http://127.0.0.1:9/${i.url}`, header: [] },
    })),
  });
}

type Step = { name: string; request: { url: string }; assert?: unknown[] };
const steps = (files: { path: string; text: string }[]) =>
  files.filter((f) => f.path.endsWith(".yaml")).flatMap((f) => parse(f.text).steps as Step[]);

/** Each unset, with a set of the same scope: an unset of a scope that does not hold it does nothing. */
const SPELLINGS = [
  ["pm.environment.set", 'pm.environment.unset("token");'],
  ["pm.collectionVariables.set", 'pm.collectionVariables.unset("token");'],
  ["pm.globals.set", 'pm.globals.unset("token");'],
  ["pm.environment.set", 'postman.clearEnvironmentVariable("token");'],
  ["pm.globals.set", 'postman.clearGlobalVariable("token");'],
];

for (const [set, unset] of SPELLINGS) {
  Deno.test(`postman unset: after ${unset} a later request sends {{token}} as written, as Newman does`, () => {
    const { files, summary } = convertPostman(collection([
      {
        name: "Login",
        url: "login",
        event: [script("test", `${set}("token", pm.response.json().token);`)],
      },
      { name: "Use", url: "use?t={{token}}", event: [] },
      { name: "Logout", url: "logout", event: [script("test", unset)] },
      { name: "After", url: "after?t={{token}}", event: [] },
    ]));
    const [, use, , after] = steps(files);
    assert.match(use.request.url, /t=\$\{steps\.login\.capture\.token\}/);
    // A flow holds no `{{`: its `{` comes from the var `lbrace`, so `{{token}}` is sent.
    assert.match(after.request.url, /after\?t=\$\{vars\.lbrace\}\{token\}\}$/);
    assert.deepEqual(summary.broken ?? [], []);
  });
}

Deno.test("postman unset: a later script reads undefined, as Postman's get does", () => {
  const { files } = convertPostman(collection([
    { name: "Set", url: "a", event: [script("test", 'pm.environment.set("k", "v");')] },
    { name: "Unset", url: "b", event: [script("test", 'pm.environment.unset("k");')] },
    {
      name: "Read",
      url: "c",
      event: [script(
        "test",
        'pm.test("gone", () => pm.expect(pm.environment.get("k")).to.be.undefined);',
      )],
    },
  ]));
  const read = steps(files)[2];
  // A check on a value known now is no check on the response: it is left out or passes.
  assert.ok(!JSON.stringify(read.assert ?? []).includes('"v"'), JSON.stringify(read));
});

Deno.test("postman unset: clear() of a whole scope is not dropped silently: it stays a comment", () => {
  const { files } = convertPostman(collection([
    { name: "Clear", url: "a", event: [script("test", "pm.environment.clear();")] },
  ]));
  const text = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(text, /pm\.environment\.clear\(\)/);
});

Deno.test("postman unset: one only an if on the response decides breaks the chain by name", () => {
  const { summary } = convertPostman(collection([
    { name: "Set", url: "a", event: [script("test", 'pm.environment.set("k", "v");')] },
    {
      name: "Maybe",
      url: "b",
      event: [script("test", 'if (pm.response.code === 404) { pm.environment.unset("k"); }')],
    },
    { name: "Read", url: "c?k={{k}}", event: [] },
  ]));
  assert.deepEqual(summary.broken?.map((b) => [b.name, b.by, b.readers]), [
    ["k", "Maybe", ["Read"]],
  ]);
});

Deno.test("postman unset: clear() of a scope breaks the chain of every variable set before, by name", () => {
  const { summary } = convertPostman(collection([
    {
      name: "Login",
      url: "login",
      event: [script("test", 'pm.environment.set("token", pm.response.json().token);')],
    },
    { name: "Clear", url: "clear", event: [script("test", "pm.environment.clear();")] },
    { name: "Use", url: "use?t={{token}}", event: [] },
  ]));
  assert.deepEqual(summary.broken?.map((b) => [b.name, b.by, b.readers]), [
    ["token", "Clear", ["Use"]],
  ]);
});
