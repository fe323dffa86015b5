/**
 * `convert openapi`: an optional parameter that the document's words say
 * must be given is sent. Found on Netdata 1.37 (tests/real/netdata_openapi_test.ts):
 * `GET /api/v1/data` marks `chart` and `context` optional, each described
 * "Note chart or context must be specified", `chart` with `default:
 * system.cpu`; both were left out, and Netdata answered 400 "No chart or
 * context is given.". When the sentence names alternatives, the first that
 * the document gives a value (an example, a default, an enum) is sent, and
 * the others stay out; a sentence that says when ("must be given if …")
 * is a condition the converter cannot weigh, and leaves the parameter out.
 *
 * The stand-in below answers as Netdata does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const NOTE = "The id of the chart. Note chart or context must be specified";

function param(name: string, description: string, schema: Record<string, unknown>) {
  return { name, in: "query", required: false, description, schema };
}

/** A document of one read whose query parameters are `params`. */
function document(params: unknown[]): Record<string, unknown> {
  return {
    openapi: "3.0.0",
    info: { title: "Metrics", version: "1" },
    paths: {
      "/data": {
        get: {
          summary: "Get collected data for a specific chart",
          parameters: [
            ...params,
            {
              name: "after",
              in: "query",
              required: true,
              schema: { type: "number", format: "integer", default: -600 },
            },
          ],
          responses: {
            "200": { description: "OK", content: { "application/json": { schema: {} } } },
          },
        },
      },
    },
  };
}

/** Netdata's /data: 400 with neither chart nor context, 404 for a chart it does not have. */
function startServer() {
  const asked: URLSearchParams[] = [];
  const stand = serveStandIn((req) => {
    const url = new URL(req.url);
    if (url.pathname !== "/data") return new Response(null, { status: 404 });
    asked.push(url.searchParams);
    const chart = url.searchParams.get("chart");
    const context = url.searchParams.get("context");
    if (!chart && !context) return new Response("No chart or context is given.", { status: 400 });
    if (chart && chart !== "system.cpu") return new Response("Chart is not found", { status: 404 });
    if (context && context !== "system.load") {
      return new Response("Context is not found", { status: 404 });
    }
    return Response.json({ labels: ["time", "user"], data: [[1, 2]] });
  });
  return { ...stand, asked };
}

Deno.test("convert openapi: of optional alternatives the document says one of must be given, the first it gives a value is sent", async () => {
  const server = startServer();
  const { runs, flows } = await convertAndRunSuite(
    document([
      param("chart", NOTE, { type: "string", default: "system.cpu" }),
      param("context", NOTE, { type: "string" }),
    ]),
    server,
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(server.asked.length, 1);
  assert.equal(server.asked[0].get("chart"), "system.cpu");
  assert.equal(server.asked[0].has("context"), false);
  const flow = [...flows.values()][0];
  assert.match(flow, /optional, sent: query chart \(its description says/);
});

Deno.test("convert openapi: the alternative sent is the one the document gives a value, whichever comes first", async () => {
  const server = startServer();
  const note = "A context. Either chart or context must be given.";
  const { runs } = await convertAndRunSuite(
    document([
      param("chart", note, { type: "string" }),
      param("context", note, { type: "string", example: "system.load" }),
    ]),
    server,
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(server.asked[0].get("context"), "system.load");
  assert.equal(server.asked[0].has("chart"), false);
});

Deno.test("convert openapi: an optional parameter whose own description says it must be provided is sent", async () => {
  const server = startServer();
  const { runs } = await convertAndRunSuite(
    document([param("chart", "The chart to read. It must be provided.", {
      type: "string",
      enum: ["system.cpu", "system.ram"],
    })]),
    server,
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(server.asked[0].get("chart"), "system.cpu");
});

Deno.test("convert openapi: an optional parameter that must be given only under a condition, or that nothing says is needed, stays out", async () => {
  const server = startServer();
  const { flows } = await convertAndRunSuite(
    document([
      param("chart", "The chart. It must be specified if context is not.", {
        type: "string",
        default: "system.cpu",
      }),
      param("context", "The context of the chart.", { type: "string", example: "system.load" }),
    ]),
    server,
  );
  assert.equal(server.asked.length, 1);
  assert.deepEqual([...server.asked[0].keys()], ["after"]);
  assert.match([...flows.values()][0], /optional, left out: query chart, query context/);
});

Deno.test("convert openapi: a sentence of 'must be' about a form, another parameter or a value's shape does not send the parameter", async () => {
  const server = startServer();
  const { flows } = await convertAndRunSuite(
    document([
      // Real documents' words (APIs.guru's directory): how to send it, not that it is needed.
      param("chart", "Must be provided as an array query string parameter.", {
        type: "string",
        default: "system.cpu",
      }),
      // Another parameter's need, under a condition of its own.
      param("context", "For VPC groups, `dimension` must be provided.", {
        type: "string",
        example: "system.load",
      }),
      param("dimension", "This parameter must be specified together with 'context'.", {
        type: "string",
        example: "user",
      }),
      param("points", "Two values must be provided.", { type: "integer", example: 2 }),
    ]),
    server,
  );
  assert.deepEqual([...server.asked[0].keys()], ["after"]);
  assert.match(
    [...flows.values()][0],
    /optional, left out: query chart, query context, query dimension, query points/,
  );
});

Deno.test("convert openapi: a sentence naming the parameter in another spelling, or saying 'this', sends it", async () => {
  const server = startServer();
  const { runs } = await convertAndRunSuite(
    document([
      param("chartId", "At least one of chart_id or context needs to be specified.", {
        type: "string",
        example: "system.cpu",
      }),
      param("context", "This must be provided.", { type: "string", example: "system.load" }),
    ]),
    server,
  );
  assert.equal(server.asked[0].get("chartId"), "system.cpu");
  assert.equal(server.asked[0].get("context"), "system.load");
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
});
