/**
 * `convert openapi`: a text whose description says it is Base64 encoded ("The Base64 encoded
 * secret key", PowerDNS's TSIG key; "base64-encoded content") and
 * gives no format is sent as bytes are, base64, as a `format: byte` text is. Before, it was made
 * per run as any text of a body (`key-${RANDOM.HEX_8}`), which no base64 decoder takes (the `-`):
 * the server refuses it (400), whatever else the body holds. A description that says it is not
 * base64, or a text with a format or pattern of its own, keeps its value. The stand-in, on
 * 127.0.0.1, decodes what it is sent as its users' servers do.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = (description: string) => ({ type: "string", description });
// Standard base64 (RFC 4648 §4), padded: what PowerDNS and most decoders take.
const b64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const document = {
  openapi: "3.0.3",
  info: { title: "Keys", version: "1" },
  paths: {
    "/keys": {
      post: {
        tags: ["keys"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name", "key", "content", "note"],
                properties: {
                  name: text("The name of the key"),
                  key: text("The Base64 encoded secret key"),
                  content: text("The file's base64-encoded content."),
                  note: text("A note, not base64 encoded."),
                },
              },
            },
          },
        },
        responses: { "201": { description: "Created" } },
      },
    },
  },
};

Deno.test("convert openapi: a text its description says is Base64 encoded is sent base64", async () => {
  const bodies: Record<string, string>[] = [];
  const server = serveStandIn(async (req) => {
    const body = await req.json();
    bodies.push(body);
    for (const k of ["key", "content"]) {
      if (typeof body[k] !== "string" || !b64.test(body[k])) {
        return Response.json({ error: `${k} is not base64` }, { status: 400 });
      }
    }
    return Response.json({ id: "k1" }, { status: 201 });
  });
  const { runs, summary } = await convertAndRunSuite(document, server, { runs: 1 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + summary);
  assert.match(bodies[0].name, /^name-/);
  assert.match(bodies[0].note, /^note-/);
});
