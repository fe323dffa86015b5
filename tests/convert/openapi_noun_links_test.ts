/**
 * A path parameter named after its collection's noun and a property
 * (`{paymentPspReference}` of `/payments/…`, `{featureName}` of `/features/…`)
 * is read from the create only on evidence the create's answer holds it: the
 * answer's schema requires it, or the client sent it (the request requires
 * it). Adyen's `pspReference` is neither — absent when a payment first asks
 * for 3-D Secure — and the capture failed the create on the document's own
 * first example.
 */
import assert from "node:assert/strict";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { paramLinks } from "../../lib/convert/openapi/producers.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

function linksOf(response: unknown, request?: unknown) {
  const doc = {
    paths: {
      "/payments": {
        post: {
          ...(request ? { requestBody: json(request) } : {}),
          responses: { "200": json(response) },
        },
      },
      "/payments/{paymentPspReference}/cancels": {
        parameters: [{ name: "paymentPspReference", in: "path", required: true }],
        post: { responses: { "201": {} } },
      },
    },
  };
  const ops = operationsOf(doc);
  return paramLinks(doc, ops).get(ops[1]) ?? [];
}

const answer = { type: "object", properties: { pspReference: { type: "string" } } };

Deno.test("a property the answer may leave out and the client never sent is not read by the noun", () => {
  assert.deepEqual(linksOf(answer).filter((l) => l.path?.join() === "pspReference"), []);
});

Deno.test("a property the answer requires, or the request sends, is read from the create", () => {
  const required = linksOf({ ...answer, required: ["pspReference"] });
  assert.deepEqual(required.map((l) => l.path?.join()), ["pspReference"]);
  const sent = linksOf(answer, {
    type: "object",
    required: ["pspReference"],
    properties: { pspReference: { type: "string" } },
  });
  assert.deepEqual(sent.map((l) => l.path?.join()), ["pspReference"]);
});
