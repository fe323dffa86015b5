/**
 * `convert openapi`: an operation whose answer is a stream the server holds open (a gRPC
 * gateway's server-streaming call: "A successful response.(streaming responses)", its schema
 * titled "Stream result of …": etcd's `POST /v3/watch`) gets a short timeout of its own, stated
 * in its step (`options: {timeout: 5s}`) and said in its comment: it waited out the run's
 * `--timeout` (30 s by default) for an end that never comes. An answer of the same document that
 * is no stream keeps the run's timeout.
 *
 * The stand-in, on 127.0.0.1, writes the watch's first message and then holds the answer open
 * until the client leaves; the run is given a long `--timeout` so only the step's own can end it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const document = {
  openapi: "3.0.3",
  info: { title: "Store", version: "1" },
  paths: {
    "/v3/watch": {
      post: {
        tags: ["Watch"],
        summary: "Watch watches for events happening or that have happened.",
        requestBody: json({ type: "object", properties: {} }),
        responses: {
          "200": {
            description: "A successful response.(streaming responses)",
            ...json({ type: "object", title: "Stream result of WatchResponse" }),
          },
        },
      },
    },
    "/v3/kv/range": {
      post: {
        tags: ["Watch"],
        requestBody: json({ type: "object", properties: {} }),
        responses: {
          "200": { description: "A successful response.", ...json({ type: "object" }) },
        },
      },
    },
  },
};

Deno.test("convert openapi: a streamed answer's step states a short timeout of its own; the others keep the run's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-stream-" });
  let left = 0;
  const stand = serveStandIn((req) => {
    if (new URL(req.url).pathname !== "/v3/watch") return Response.json({});
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"result":{"created":true}}\n'));
      },
      cancel() {
        left++;
      },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = Deno.readTextFileSync(`${dir}/flows/watch.yaml`);
    assert.match(
      flow,
      /# .*a stream the server holds open.*\n(.*\n){1,8}?\s+options:\n\s+timeout: "?5s"?/,
    );
    assert.equal(flow.match(/timeout:/g)?.length, 1, flow);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const run = await runCli(
      [...line.split(" "), "--timeout", "600s", "--report-json", `${dir}/report.json`],
      { env: { BASE_URL: stand.base } },
    );
    const report = JSON.parse(Deno.readTextFileSync(`${dir}/report.json`));
    const steps = report.flows.flatMap((f: { steps: unknown[] }) => f.steps);
    const watch = steps.find((s: { name: string }) => s.name === "post_v3_watch");
    // Ended by its own 5 s, not the run's 600 s: the report says which timeout it ran out.
    assert.match(watch.message, /within 5000 ms/, JSON.stringify(watch));
    assert.equal(run.code, 1, run.stdout);
    assert.equal(left, 1);
  } finally {
    await stand.close();
    await Deno.remove(dir, { recursive: true });
  }
});
