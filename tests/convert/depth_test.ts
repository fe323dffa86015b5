/**
 * `convert har` walks recorded JSON only to a documented depth: a request
 * body or a response nested deeper is kept as it is (sent as the recorded
 * text, not read for values or assertions) and the summary says so, instead
 * of a stack overflow. The output still loads.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { MAX_WALK_DEPTH } from "../../lib/convert/json.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

const nested = (depth: number, leaf = '"deep-leaf"') =>
  '{"a":'.repeat(depth) + leaf + "}".repeat(depth);
const list = (depth: number) => "[".repeat(depth) + '"x"' + "]".repeat(depth);

function entry(method: string, url: string, body: string | undefined, response: string) {
  const json = [{ name: "content-type", value: "application/json" }];
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method,
      url,
      httpVersion: "HTTP/1.1",
      headers: json,
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: body?.length ?? 0,
      ...(body ? { postData: { mimeType: "application/json", text: body } } : {}),
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: json,
      cookies: [],
      content: { size: response.length, mimeType: "application/json", text: response },
      redirectURL: "",
      headersSize: -1,
      bodySize: response.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

function har(requestBody: string, response: string): string {
  return JSON.stringify({
    log: {
      version: "1.2",
      creator: { name: "test", version: "1" },
      entries: [
        entry("POST", "http://api.test/items", requestBody, '{"id":"itm_1a2b3c4d5e6f"}'),
        entry("GET", "http://api.test/items/itm_1a2b3c4d5e6f", undefined, response),
      ],
    },
  });
}

Deno.test("a request body 3,000 deep and a response 10,000 deep convert, kept as recorded and noted", () => {
  for (const [body, response] of [[nested(3000), nested(10_000)], [list(3000), list(10_000)]]) {
    const result = convertHar(har(body, response));
    const { flow, problems } = loadFlow(result.yaml, "converted.yaml", { env: () => "x" });
    assert.deepEqual(problems, []);
    assert.equal(flow!.steps.length, 2);
    const deep = result.summary.notes.filter((n) => n.includes(`deeper than ${MAX_WALK_DEPTH}`));
    assert.equal(deep.length, 2, result.summary.notes.join("\n"));
    assert.match(deep.join("\n"), /request body .* kept as recorded/);
    assert.match(deep.join("\n"), /response body .* no body assertions/);
    // The request body is sent byte for byte as recorded.
    assert.ok(result.yaml.includes(body.slice(0, 200)), "the recorded body is in the flow");
  }
});

Deno.test("bodies at the walking depth are still read for values and assertions", () => {
  const result = convertHar(har(nested(MAX_WALK_DEPTH - 1), nested(MAX_WALK_DEPTH - 1)));
  assert.equal(result.summary.notes.filter((n) => n.includes("deeper than")).length, 0);
  assert.match(result.yaml, /deep-leaf/);
  assert.match(result.yaml, /equals: deep-leaf|deep-leaf/);
  assert.deepEqual(loadFlow(result.yaml, "c.yaml", { env: () => "x" }).problems, []);
});

Deno.test("flowrun convert har on deeply nested bodies: exit 0, the summary says so, no stack trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-convert-depth-" });
  try {
    await Deno.writeTextFile(`${dir}/deep.har`, har(nested(3000), nested(10_000)));
    const result = await runCli(["convert", "har", `${dir}/deep.har`, "-o", `${dir}/out.yaml`]);
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 0, output);
    assert.doesNotMatch(output, /internal error|^\s+at /m);
    assert.match(output, new RegExp(`deeper than ${MAX_WALK_DEPTH} levels`));
    const validated = await runCli(["validate", `${dir}/out.yaml`, "--no-env"]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
