/**
 * One value a pre-request script makes once and reads into two variables (`const r =
 * _.random(…); pm.environment.set("a", r); pm.environment.set("b", r)`, a `{{$randomInt}}` kept
 * in a local, `Math.random()` joined into a name and an address) is one value in Newman: every
 * variable the script sets from it holds the same. flowrun made each variable its own var, so a
 * `${RANDOM.…}` was drawn once per variable, and a server reading the two together (an account's
 * name inside its address, a code confirmed against itself) got two different values. The value
 * is now a var of its own that every variable the script sets from it reads.
 *
 * Newman 6.2.1 (by hand, against a server that printed each body) sent for this collection
 * `{"a":"89251","b":"89251","c":"u0.632…","d":"0.632…@x.test","e":"626","f":"626"}`.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A sign-up whose pre-request script makes each value once and sets it into two variables. */
function collection(base: string, script: string[]) {
  const post = jsonPoster(base);
  const fields = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
  const raw = `{${fields.map((f) => `"${f}": "{{${f}}}"`).join(", ")}}`;
  return {
    info: { name: "Shared", schema: V21 },
    item: [
      post("Sign up", "/signup", raw, [{ listen: "prerequest", script: { exec: script } }]),
      post("Confirm", "/confirm", '{"a": "{{a}}", "d": "{{d}}", "f": "{{f}}"}'),
    ],
  };
}

/** The habits collections write: a lodash number, a made text joined twice, a kept placeholder. */
const SCRIPT = [
  "const r = _.random(1000, 9999);",
  "pm.environment.set('a', r);",
  "pm.environment.set('b', r);",
  "const s = Math.random();",
  "pm.environment.set('c', 'u' + s);",
  "pm.environment.set('d', `${s}@x.test`);",
  "const n = pm.variables.replaceIn('{{$randomInt}}');",
  "pm.environment.set('e', n);",
  "pm.environment.set('f', n);",
  // The clock kept once is one time, not two a second apart (made.ts's rule for two reads).
  "const t = Date.now();",
  "pm.environment.set('i', 'at' + t);",
  "pm.environment.set('j', `${t}`);",
  // Two calls are two values, as in Newman.
  "pm.environment.set('g', Math.random());",
  "pm.environment.set('h', Math.random());",
];

Deno.test("postman shared made: one random value a script sets into two variables is sent as one", () =>
  withBodySink(async (base, seen, dir) => {
    const { files, summary } = convertPostman(JSON.stringify(collection(base, SCRIPT)));
    const text = formatPostmanSummary(summary, dir);
    assert.doesNotMatch(text, /cannot express/, text);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    const [signUp, confirm] = seen;
    const all = JSON.stringify(seen);
    // `_.random(1000, 9999)`: a whole number in its range, the same in both variables.
    assert.match(signUp.a, /^\d{4}$/, all);
    assert.equal(signUp.b, signUp.a, all);
    // One made text joined into a name and an address.
    const part = signUp.c.slice(1);
    assert.match(signUp.c, /^u\S+$/, all);
    assert.equal(signUp.d, `${part}@x.test`, all);
    assert.equal(signUp.f, signUp.e, all);
    assert.notEqual(signUp.g, signUp.h, all);
    assert.match(signUp.j, /^\d{13}$/, all);
    assert.equal(signUp.i, `at${signUp.j}`, all);
    // Later requests read the same values.
    assert.deepEqual(confirm, { a: signUp.a, d: signUp.d, f: signUp.f }, all);
  }));

Deno.test("postman shared made: a collection script run before every request makes one var, not one per request", () => {
  const c = collection("http://127.0.0.1:9", []);
  const shared = {
    ...c,
    event: [{
      listen: "prerequest",
      script: {
        exec: [
          "const s = Math.random();",
          "pm.environment.set('c', 'u' + s);",
          "pm.environment.set('d', s + '@x');",
        ],
      },
    }],
    item: Array.from({ length: 40 }, (_, i) => ({ ...c.item[1], name: `Confirm ${i}` })),
  };
  const { files } = convertPostman(JSON.stringify(shared));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /^ {2}s: \$\{RANDOM\.HEX_8\}$/m, flow);
  assert.doesNotMatch(flow, /s_2:/, flow);
  assert.match(flow, /^ {2}d: \$\{vars\.s\}@x$/m, flow);
});
