/**
 * Libraries a script takes with `require(…)`, which Newman's sandbox gives (checked with Newman
 * 6.2.2): `require('uuid')` is a function making a v4 UUID, with `.v4()` too; `require('lodash')`
 * is lodash 4.17.21 (the global `_` is 3.10.2); `require('moment')` and `require('chai')` work,
 * and chai's `expect` is the one `pm.expect` is (its checks stayed comments before).
 * A UUID made by `uuid.v4()`, `uuidv4()` of `const { v4: uuidv4 } = require('uuid')` or
 * `require('uuid').v4()` stayed a comment and was sent as `{{id}}` where Newman sends a fresh
 * UUID; `lodash.random(1, 9)` of `const lodash = require('lodash')` stayed a comment where `_.
 * random(1, 9)` was a made number. Now the name a `require` binds is the library's: a v4 UUID
 * is `${RANDOM.UUID}`, lodash's functions are read as `_`'s. A script's own `uuid` (no
 * `require`) is not taken for the library.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("postman require(): uuid's v4 is a made UUID, and lodash is _", async () => {
  await withBodySink(async (base, seen, dir) => {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Made", schema: V21 },
      item: [{
        name: "Make",
        event: [{
          listen: "prerequest",
          script: {
            exec: [
              "const uuid = require('uuid');",
              "const { v4: uuidv4 } = require('uuid');",
              "const lodash = require('lodash');",
              "pm.environment.set('a', uuid.v4());",
              "pm.environment.set('b', uuidv4());",
              "pm.environment.set('c', uuid());",
              "pm.environment.set('d', require('uuid').v4());",
              "pm.environment.set('n', lodash.random(1, 9));",
            ],
          },
        }],
        request: {
          method: "POST",
          url: `${base}/make`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: {
            mode: "raw",
            raw: '{"a": "{{a}}", "b": "{{b}}", "c": "{{c}}", "d": "{{d}}", "n": {{n}}}',
          },
        },
      }],
    }));
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    const [sent] = seen as unknown as Record<string, unknown>[];
    for (const k of ["a", "b", "c", "d"]) assert.match(String(sent[k]), UUID, JSON.stringify(sent));
    assert.equal(new Set([sent.a, sent.b, sent.c, sent.d]).size, 4, JSON.stringify(sent));
    assert.ok(typeof sent.n === "number" && sent.n >= 1 && sent.n <= 9, JSON.stringify(sent));
  });
});

Deno.test("postman require(): a script's own uuid is not the library's", () => {
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Own", schema: V21 },
    item: [{
      name: "Own",
      event: [{
        listen: "prerequest",
        script: {
          exec: ["const uuid = { v4: () => 'fixed' };", "pm.environment.set('a', uuid.v4());"],
        },
      }],
      request: { method: "GET", url: "http://127.0.0.1:9/{{a}}" },
    }],
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.doesNotMatch(flow.text, /RANDOM\.UUID/, flow.text);
});

Deno.test("postman require(): chai's expect is pm.expect", async () => {
  await withBodySink(async (base, _seen, dir) => {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Chai", schema: V21 },
      item: [{
        name: "Check",
        event: [{
          listen: "test",
          script: {
            exec: [
              "const chai = require('chai');",
              "const { expect } = require('chai');",
              "pm.test('chai.expect', () => chai.expect(pm.response.json().ok).to.eql(true));",
              "pm.test('expect', () => expect(pm.response.json().ok).to.eql(true));",
              "pm.test('fails', () => expect(pm.response.json().ok).to.eql(false));",
            ],
          },
        }],
        request: { method: "POST", url: `${base}/check`, body: { mode: "raw", raw: "{}" } },
      }],
    }));
    const { run, flow } = await runConverted(files, dir);
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    assert.equal(run.code, 1, run.stdout + run.stderr + flow.text);
    assert.match(run.stdout, /✘ fails/, run.stdout);
    assert.doesNotMatch(run.stdout, /✘ (chai\.)?expect/, run.stdout);
  });
});
