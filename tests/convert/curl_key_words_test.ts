/**
 * `convert curl` on a query's `key` words that are data: CouchDB's documentation queries views
 * with `?keys=["a","b"]`, `?startkey="a"&endkey="b"` and `?key="apple"`, and the summary asked
 * for `KEYS`, `STARTKEY` and `ENDKEY` as secrets because each name contains "key".
 *
 * What the converter does (lib/convert/key_data.ts): a value is a secret by what it is, never by
 * the word "key" in its name. A JSON-shaped value (a quoted string, an array, an object, a
 * number, `true`, `false`, `null`) or a range's bound (`startkey`, `end_key`) is data, sent as
 * typed; a value shaped like a credential (`?api_key=` 32 hex, `?key=AIza…`) is still asked
 * for and masked in the step's comment.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";
import { fullExchange } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const VIEW = "http://HOST/albums/_design/by/_view/title";

const DOCS = [
  `curl -X GET '${VIEW}?keys=["a","b"]'`,
  `curl -X GET '${VIEW}?startkey="a"&endkey="b"'`,
  `curl -X GET '${VIEW}?key="apple"&limit=1'`,
  `curl -X GET 'http://HOST/albums/_all_docs?key=5&include_docs=true'`,
  `curl -X GET '${VIEW}?start_key=["a",null]&end_key=["a",{}]&inclusive_end=false'`,
  "",
].join("\n");

/** A view server that answers 200 only to the queries as typed, 404 otherwise. */
function server(seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const u = new URL(req.url);
    seen.push(decodeURIComponent(u.search));
    const ok = [
      '?keys=["a","b"]',
      '?startkey="a"&endkey="b"',
      '?key="apple"&limit=1',
      "?key=5&include_docs=true",
      '?start_key=["a",null]&end_key=["a",{}]&inclusive_end=false',
    ].includes(decodeURIComponent(u.search));
    return Response.json({ rows: [] }, { status: ok ? 200 : 404 });
  });
}

Deno.test("convert curl: view queries' keys, startkey, endkey and key are data, not asked", () => {
  const { yaml, summary } = convertCurl(DOCS.replaceAll("HOST", "a.test"));
  assert.deepEqual(summary.env, [], yaml);
  assert.doesNotMatch(yaml, /\*\*\*/, yaml);
  // Sent as typed (the URL writes `"` as %22, which the server reads back as `"`).
  const sent = decodeURIComponent(yaml);
  assert.match(sent, /\?keys=\["a","b"\]/, yaml);
  assert.match(sent, /startkey="a"&endkey="b"/, yaml);
});

Deno.test("convert curl: a credential-shaped api_key or key is still asked for and masked", () => {
  const hex = "3f9a2b7c4d5e6f708192a3b4c5d6e7f8";
  const google = "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY";
  const { yaml, summary } = convertCurl(
    [
      `curl 'http://a.test/v1/items?api_key=${hex}'`,
      `curl 'http://a.test/maps/geo?key=${google}&q=paris'`,
      "",
    ].join("\n"),
  );
  assert.equal(summary.env.length, 2, `${summary.env}\n${yaml}`);
  assert.ok(!yaml.includes(hex) && !yaml.includes(google), yaml);
  assert.match(yaml, /# GET http:\/\/a\.test\/v1\/items\?api_key=\*\*\*/, yaml);
  assert.match(yaml, /# GET http:\/\/a\.test\/maps\/geo\?key=\*\*\*&q=paris/, yaml);
});

Deno.test("convert curl: view queries run as typed against a server checking them", async () => {
  const seen: string[] = [];
  await using s = server(seen);
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ converted, runFlow, readFlow }) => {
    assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
    const out = await runFlow();
    const flow = await readFlow();
    assert.equal(out.code, 0, `${seen.join("\n")}\n${flow}\n${out.stdout}`);
    assert.equal(seen.length, 5, seen.join("\n"));
  });
});

Deno.test("convert har: the same rule; view keys are data, a random bare key is asked", async () => {
  const dir = await Deno.makeTempDir();
  const google = "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY";
  try {
    const view = "http://a.test/albums/_design/by/_view/title";
    const entries = [
      fullExchange("GET", `${view}?keys=${encodeURIComponent('["a","b"]')}`, undefined, "{}"),
      fullExchange("GET", `${view}?startkey=%22a%22&endkey=%22b%22`, undefined, "{}"),
      fullExchange("GET", `http://a.test/maps/geo?key=${google}`, undefined, "{}"),
    ];
    const har = JSON.stringify({ log: { version: "1.2", creator: { name: "t" }, entries } });
    const { converted, flow } = await convertHar(dir, har);
    assert.match(converted.stderr, /Set before running: \w*KEY\./, converted.stderr);
    assert.ok(!flow.includes(google), flow);
    assert.match(flow, /# GET http:\/\/a\.test\/albums\/_design\/by\/_view\/title\?keys=%5B/, flow);
    assert.match(flow, /startkey=%22a%22&endkey=%22b%22/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert curl: a bare key's word the API names in a path is data; alone it is asked", () => {
  const named = convertCurl(
    "curl 'http://a.test/settings?key=theme'\ncurl -X PUT http://a.test/settings/theme -d dark\n",
  );
  assert.deepEqual(named.summary.env, [], named.yaml);
  assert.match(named.yaml, /settings\?key=theme/, named.yaml);
  const alone = convertCurl("curl 'http://a.test/settings?key=theme'\n");
  assert.equal(alone.summary.env.length, 1, alone.yaml);
});
