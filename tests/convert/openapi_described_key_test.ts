/**
 * `convert openapi`: an item addressed by a parameter its create's answer
 * holds under another name, which the answer's description says it is
 * (Unleash's `DELETE /api/admin/projects/{projectId}/api-tokens/{token}`,
 * whose create answers `secret`, "The token used for authentication."),
 * is addressed by that member. The parameter was read from the create's
 * `Location`, which names the collection only (`…/api-tokens`), so the
 * DELETE went to `…/api-tokens/api-tokens` (404). The stand-in answers
 * each create as Unleash does: 201, `Location` the collection.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = (description: string) => ({ type: "string", description });

/** Keys (`{key}`) and API tokens (`{apiToken}`), each made, read and deleted. */
function document() {
  const resource = (collection: string, param: string, answer: Record<string, unknown>) => {
    const ok = {
      description: "made",
      headers: { location: { schema: { type: "string", format: "uri" } } },
      content: {
        "application/json": {
          schema: { type: "object", required: Object.keys(answer), properties: answer },
        },
      },
    };
    const parameters = [{ name: param, in: "path", required: true, schema: { type: "string" } }];
    return {
      [collection]: {
        post: {
          tags: [collection.slice(1)],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["name"],
                  properties: { name: { type: "string", example: "ci" } },
                },
              },
            },
          },
          responses: { "201": ok },
        },
      },
      [`${collection}/{${param}}`]: {
        get: { tags: [collection.slice(1)], parameters, responses: { "200": ok } },
        delete: {
          tags: [collection.slice(1)],
          parameters,
          responses: { "200": { description: "gone" } },
        },
      },
    };
  };
  return {
    openapi: "3.0.3",
    info: { title: "Keys", version: "1" },
    paths: {
      ...resource("/keys", "key", {
        name: text("A unique name for this key"),
        keyType: text("The key's type"),
        secret: text("The key used to sign requests."),
        createdAt: text("When the key was made."),
      }),
      ...resource("/api-tokens", "apiToken", {
        tokenName: text("A unique name for this particular token"),
        value: text("The API token to present in the Authorization header."),
        createdAt: text("When the token was made."),
      }),
    },
  };
}

Deno.test("convert openapi: an item's key is the answer's member its description says it is, not a Location naming the collection", async () => {
  const items = new Map<string, string>();
  const deleted: string[] = [];
  const server = serveStandIn(async (req) => {
    const url = new URL(req.url);
    const [, collection, key] = url.pathname.split("/");
    if (req.method === "POST") {
      const { name } = await req.json();
      const made = `${collection}:${crypto.randomUUID()}`;
      items.set(made, name);
      const at = new Date().toISOString();
      const answer = collection === "keys"
        ? { name, keyType: "hmac", secret: made, createdAt: at }
        : { tokenName: name, value: made, createdAt: at };
      const headers = { location: `${url.origin}/${collection}` };
      return Response.json(answer, { status: 201, headers });
    }
    const name = items.get(decodeURIComponent(key));
    if (name === undefined) return Response.json({ error: `no ${key}` }, { status: 404 });
    if (req.method === "DELETE") {
      items.delete(decodeURIComponent(key));
      deleted.push(collection);
      return Response.json({});
    }
    return Response.json({
      name,
      secret: key,
      value: key,
      tokenName: name,
      keyType: "hmac",
      createdAt: "",
    });
  });
  const { summary, runs } = await convertAndRunSuite(document(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.ok(summary.includes("{key} of DELETE /keys/{key} ← POST /keys $.json.secret"), summary);
  assert.ok(
    summary.includes("{apiToken} of DELETE /api-tokens/{apiToken} ← POST /api-tokens $.json.value"),
    summary,
  );
  assert.deepEqual(deleted.sort(), ["api-tokens", "keys"]);
});
