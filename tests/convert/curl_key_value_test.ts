/**
 * `convertCurl`: a key-value store's docs send `{"key": "Zm9v", "value":
 * "YmFy"}` and then read the key back with `{"key": "Zm9v"}`. A bare `key`
 * is a credential's name in many APIs, but beside a `value` in the same
 * object it is the key of a key-value pair (a store's key, a setting's or a
 * tag's name), which a credential never is: that field is sent as written
 * in every command of the text, never asked for. A bare `key` that is never
 * paired with a `value` is still asked for. Commands written here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const PUT = `curl -L http://localhost:2379/v3/kv/put -X POST -d '{"key": "Zm9v", "value": "YmFy"}'`;
const GET = `curl -L http://localhost:2379/v3/kv/range -X POST -d '{"key": "Zm9v"}'`;
const TXN =
  `curl -L http://localhost:2379/v3/kv/txn -X POST -d '{"compare":[{"target":"CREATE","key":"Zm9v"}],"success":[{"requestPut":{"key":"Zm9v","value":"YmFy"}}]}'`;

Deno.test("a key beside a value is a key-value pair's key, sent as written everywhere", () => {
  for (const text of [`${PUT}\n${GET}\n`, `${GET}\n${TXN}\n`]) {
    const { yaml, summary } = convertCurl(text);
    assert.deepEqual(summary.env, [], `${text}\n${yaml}`);
    assert.doesNotMatch(yaml, /ENV\.\w*KEY/, yaml);
    assert.match(yaml, /key: Zm9v\n/, yaml);
  }
  // A list of tags, as cloud APIs write them.
  const tags = convertCurl(
    `curl -X POST http://localhost:9000/tags -H 'Content-Type: application/json' -d '{"Tags":[{"Key":"env","Value":"prod"}]}'\n`,
  );
  assert.deepEqual(tags.summary.env, [], tags.yaml);
});

Deno.test("a bare key never paired with a value is still a credential", () => {
  const { yaml, summary } = convertCurl(
    `curl -X POST http://localhost:9000/v1/send -d '{"key": "k3y-9f2c7e1a55", "to": "ann"}'\n`,
  );
  assert.ok(summary.env.some((n) => /KEY$/.test(n)), `${summary.env}\n${yaml}`);
  assert.ok(!yaml.includes("k3y-9f2c7e1a55"), yaml);
});
