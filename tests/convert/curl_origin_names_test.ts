/**
 * `convert curl` and `convert har`: several origins on one page or in one
 * recording. A monitoring API's page writes most commands for port 9090
 * and two for 9091; a page mixes `localhost` with a docs host. Each origin
 * is a base-URL variable (`BASE_URL`, `BASE_URL_2`, `BASE_URL_3`, in the
 * order the text first sends to it), and the header described every one as
 * "the API's base URL": the user had to read the defaults to guess which to
 * point where. With more than one origin, each says which steps it serves
 * (`the base URL of the steps sent to this origin: get_y`), the same words
 * from both converters (one helper, `correlate/origin_about.ts`). One origin
 * keeps "the API's base URL". Run with each variable set to its own server
 * started here, as the header says.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { convertHar } from "../../lib/convert/har.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const PAGE = [
  "curl http://HOST_A/api/v1/query",
  "curl http://HOST_B/api/v1/metadata",
  "curl http://HOST_A/api/v1/labels",
  "curl http://HOST_C/status",
  "",
].join("\n");

/** The header's variable lines: name → description. */
const described = (yaml: string) =>
  new Map([...yaml.matchAll(/^# +((?:WS_)?BASE_URL(?:_\d)?) +(.*)$/gm)].map((m) => [m[1], m[2]]));

Deno.test("each of several origins says which steps it serves, in curl", () => {
  const text = PAGE.replaceAll("HOST_A", "localhost:9090").replaceAll("HOST_B", "localhost:9091")
    .replaceAll("HOST_C", "docs.example.com");
  const got = described(convertCurl(text).yaml);
  assert.deepEqual([...got.keys()], ["BASE_URL", "BASE_URL_2", "BASE_URL_3"]);
  assert.equal(
    got.get("BASE_URL"),
    "the base URL of the steps sent to this origin: query, list_labels (http://localhost:9090)",
  );
  assert.equal(
    got.get("BASE_URL_2"),
    "the base URL of the steps sent to this origin: get_metadata (http://localhost:9091)",
  );
  assert.match(got.get("BASE_URL_3")!, /this origin: get_status \(http:\/\/docs\.example\.com\)$/);
  // One origin: the API's base URL, as before.
  const one = described(convertCurl("curl http://localhost:9090/api/v1/query\n").yaml);
  assert.equal(one.get("BASE_URL"), "the API's base URL (http://localhost:9090)");
});

Deno.test("convert har names its origins in the same words", () => {
  // Two API origins, each written to twice (one written to once reads as another site's).
  const entry = (url: string) => ({
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    _resourceType: "xhr",
    request: {
      method: "POST",
      url,
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      postData: { mimeType: "application/json", text: '{"a":1}' },
    },
    response: { status: 200, headers: [], content: { mimeType: "application/json", text: "{}" } },
  });
  const urls = ["9090/api/v1/query", "9091/api/v1/metadata", "9090/api/v1/x", "9091/api/v1/y"];
  const har = JSON.stringify({
    log: { entries: urls.map((u) => entry(`http://localhost:${u}`)) },
  });
  const got = described(convertHar(har).yaml);
  assert.equal(
    got.get("BASE_URL"),
    "the base URL of the steps sent to this origin: query, x (http://localhost:9090)",
  );
  assert.equal(
    got.get("BASE_URL_2"),
    "the base URL of the steps sent to this origin: metadata, y (http://localhost:9091)",
  );
});

Deno.test("run against two servers: each variable reaches the origin its line names", async () => {
  const seen: string[] = [];
  const serve = (tag: string) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      seen.push(`${tag} ${new URL(req.url).pathname}`);
      return Response.json({ status: "success" });
    });
  await using a = serve("a");
  await using b = serve("b");
  const text = PAGE.replaceAll("HOST_A", "localhost:9090").replaceAll("HOST_B", "localhost:9091")
    .replaceAll("HOST_C", "localhost:9090");
  await withCurlFlow(text, async ({ runFlow, readFlow }) => {
    const lines = described(await readFlow());
    assert.match(lines.get("BASE_URL_2")!, /get_metadata/);
    const run = await runFlow({
      BASE_URL: `http://127.0.0.1:${a.addr.port}`,
      BASE_URL_2: `http://127.0.0.1:${b.addr.port}`,
    });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
  assert.deepEqual(seen, [
    "a /api/v1/query",
    "b /api/v1/metadata",
    "a /api/v1/labels",
    "a /status",
  ]);
});
