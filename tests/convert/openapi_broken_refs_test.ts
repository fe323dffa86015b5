/**
 * Operations whose answers name a `$ref` to nothing are left out, named in
 * the summary, and the rest of the document converts. Found on a Feathers 5
 * application's document from `feathers-swagger` 3 (measured by hand, see
 * docs/real-servers.md): the OAuth service's three operations answer
 * `#/components/schemas/:providerList` and `:provider`, names the generator
 * made from the route `/oauth/:provider` and never wrote, and the whole
 * document of 16 operations was refused (exit 2): 0 sent. A document whose
 * every operation reaches one is still refused with the first, and an
 * unnamed `$ref` (`#/components/schemas/`, read as any value) leaves
 * nothing out: Homebridge UI's nine stayed in
 * (tests/convert/openapi_unused_refs_test.ts, tests/cli/convert_openapi_input_test.ts).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const answer = (schema: unknown) => ({
  "200": { description: "success", content: { "application/json": { schema } } },
});

const document = {
  openapi: "3.0.3",
  info: { title: "Chat", version: "1" },
  paths: {
    "/messages": {
      get: { tags: ["messages"], responses: answer({ $ref: "#/components/schemas/MessageList" }) },
    },
    // `@nestjs/swagger` writes an unnamed `$ref` for a type it could not name: any value (unnamed_refs.ts).
    "/ports": {
      put: {
        tags: ["messages"],
        requestBody: {
          content: { "application/json": { schema: { $ref: "#/components/schemas/" } } },
        },
        responses: { "200": { description: "saved" } },
      },
    },
    "/oauth/{provider}": {
      get: {
        tags: ["oauth"],
        parameters: [{ in: "path", name: "provider", required: true, schema: { type: "string" } }],
        responses: answer({ $ref: "#/components/schemas/:providerList" }),
      },
    },
  },
  components: { schemas: { MessageList: { type: "array", items: { type: "string" } } } },
};

Deno.test("convert openapi: an operation answering a $ref to nothing is left out and named; the rest converts and runs", async () => {
  const sent: string[] = [];
  const server = serveStandIn((req) => {
    const { pathname } = new URL(req.url);
    sent.push(pathname);
    if (pathname === "/ports") return new Response(null, { status: 200 });
    return pathname === "/messages" ? Response.json(["hi"]) : new Response("no", { status: 404 });
  });
  const { summary, runs, flows } = await convertAndRunSuite(document, server);
  assert.match(
    summary,
    /Left out 1 operation whose document names a \$ref to nothing .*: GET \/oauth\/\{provider\} \(#\/components\/schemas\/:providerList\)/,
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.deepEqual(sent.sort(), ["/messages", "/ports"]);
  assert.ok(![...flows.keys()].includes("oauth.yaml"));
});
