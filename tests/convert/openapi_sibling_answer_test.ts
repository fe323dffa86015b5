/**
 * `convert openapi`: what a call under a noun's path answers, taken back
 * by a sibling call under the same path as a body property of that noun's
 * name, found on Directus 10 (tests/real/directus_openapi_test.ts):
 * `POST /utils/hash/generate {string}` answers the hash (`data`), and
 * `POST /utils/hash/verify {string, hash}` was sent the sample `string`
 * for a hash (500 "Invalid hash"). The sibling now sends the answered one.
 *
 * The stand-in runs on 127.0.0.1 and verifies a hash only of the text it
 * was made from.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = (data: unknown) => ({
  "200": { description: "OK", content: json({ type: "object", properties: { data } }) },
});
const text = (description: string) => ({ type: "string", description });

/** A hash made of a text, and its check. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Utilities", version: "1" },
    paths: {
      "/utils/hash/generate": {
        post: {
          operationId: "hashGenerate",
          requestBody: {
            content: json({
              required: ["string"],
              properties: { string: text("String to hash.") },
            }),
          },
          responses: ok({ type: "string", example: "$argon2i$v=19$m=4096,t=3,p=1$pOyIa" }),
        },
      },
      "/utils/hash/verify": {
        post: {
          operationId: "hashVerify",
          requestBody: {
            content: json({
              required: ["string", "hash"],
              properties: { string: text("String to hash."), hash: text("Hash to verify.") },
            }),
          },
          responses: ok({ type: "boolean" }),
        },
      },
    },
  };
}

function utilities() {
  const hash = (s: string) => `$h$${[...s].reverse().join("")}`;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.json();
    if (pathname === "/utils/hash/generate") return Response.json({ data: hash(body.string) });
    if (typeof body.hash !== "string" || !body.hash.startsWith("$h$")) {
      return Response.json({ errors: [{ message: "Invalid hash" }] }, { status: 500 });
    }
    return Response.json({ data: body.hash === hash(body.string) });
  });
}

Deno.test("convert openapi: a sibling call takes back what its noun's other call answered", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), utilities());
  const flow = [...flows.values()].join("\n");
  assert.equal(runs[0].code, 0, `${summary}\n${flow}\n${runs[0].stdout}`);
  assert.match(flow, /hash: \$\{steps\.hash_generate\.capture\.hash\}/);
});
