/**
 * `convert openapi` on an operation whose answer's status is the one the
 * request names (httpbin's `/status/{codes}`: one path parameter with no
 * type nor example, answers documented 100, 200, 300, 400 and 500). No
 * server answers a final 100 of its own accord: documenting one says the
 * client chooses the status, and the parameter is what chooses it. Its
 * value was the placeholder text `string` (or, for the PUT that looked like
 * a create at a URL the client names, `codes-1a2b3c4d`), which httpbin
 * refuses with a 400; it is now the documented 2xx. An operation that
 * documents no 1xx keeps the placeholder. The stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const STATUS = {
  parameters: [{ in: "path", name: "codes" }],
  produces: ["text/plain"],
  responses: {
    100: { description: "Informational responses" },
    200: { description: "Success" },
    300: { description: "Redirection" },
    400: { description: "Client Errors" },
    500: { description: "Server Errors" },
  },
};

const DOCUMENT = {
  swagger: "2.0",
  info: { title: "statuses", version: "1" },
  paths: {
    "/status/{codes}": { get: STATUS, put: STATUS, delete: STATUS },
    "/things/{thing}": {
      get: {
        parameters: [{ in: "path", name: "thing", required: true, type: "string" }],
        responses: { 200: { description: "A thing." }, 404: { description: "No such thing." } },
      },
    },
  },
};

Deno.test("convert openapi: a path parameter that chooses the answer's status is a documented 2xx", async () => {
  const sent: string[] = [];
  const server = serveStandIn((req) => {
    const [, first, value] = new URL(req.url).pathname.split("/");
    if (first === "things") return Response.json({ thing: value });
    sent.push(`${req.method} ${value}`);
    const code = /^[1-5]\d\d$/.test(value) ? Number(value) : 400;
    return new Response(code === 100 ? null : "", { status: code === 100 ? 400 : code });
  });
  const { runs: [run], flows } = await convertAndRunSuite(DOCUMENT, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(sent.sort(), ["DELETE 200", "GET 200", "PUT 200"]);
  // A parameter of an operation that documents no 1xx is a placeholder as before.
  assert.match([...flows.values()].join("\n"), /^ {2}thing: string$/m);
});
