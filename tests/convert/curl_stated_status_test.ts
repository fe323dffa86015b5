/**
 * `convertCurl`: a pasted error answer that states its own HTTP status. A
 * monitoring server's API page shows a create that fails validation, its
 * answer pasted under it: `{"results": [{"code": 500.0, "errors": […],
 * "status": "Object could not be created."}]}`. The step checked a status
 * below 400 (the error objects inside a `results` list were not read as
 * one), and the server's 500, the documented answer, failed it. Frameworks
 * write the same in their own words: NestJS and Fastify
 * `{"statusCode": 503, "error": …, "message": …}` (read as a refusal, 4xx,
 * before: the 503 failed), Spring Boot `{"timestamp": …, "status": 404,
 * "error": "Not Found", "path": …}` and RFC 7807's problem details with an
 * `instance` (no error object before: a status below 400). An error object,
 * or every item of an answer's one list of them, whose body states a status
 * of 400 to 599 checks for that status's class now (a 4xx or a 5xx); a
 * success the body states (`"code": 200.0`) stays below 400. Run against a
 * server started here that answers as the pages show.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS = [
  "Example for creating a host:",
  "",
  "```bash",
  `curl -s -X PUT 'http://HOST/v1/objects/hosts/one' -d '{ "attrs": { "check_command": "hostalive" } }'`,
  "```",
  "",
  "```json",
  '{ "results": [ { "code": 200.0, "status": "Object was created." } ] }',
  "```",
  "",
  "The following example is missing the `check_command` attribute:",
  "",
  "```bash",
  `curl -s -X PUT 'http://HOST/v1/objects/hosts/two' -d '{ "attrs": {} }'`,
  "```",
  "",
  "```json",
  "{",
  '    "results": [',
  "        {",
  '            "code": 500.0,',
  '            "errors": [ "Error: Validation failed for object \'two\'." ],',
  '            "status": "Object could not be created."',
  "        }",
  "    ]",
  "}",
  "```",
  "",
  "curl -s http://HOST/health",
  '{"statusCode": 503, "error": "Service Unavailable", "message": "database down"}',
  "",
  "curl -s http://HOST/missing",
  '{"timestamp": "2024-01-01T00:00:00.000+00:00", "status": 404, "error": "Not Found", "path": "/missing"}',
  "",
  "curl -s http://HOST/orders/9",
  '{"type": "about:blank", "title": "Gone", "status": 410, "detail": "Order 9 was archived.", "instance": "/orders/9"}',
  "",
].join("\n");

/** Each step's status check, in order. */
const statusChecks = (yaml: string) => [...yaml.matchAll(/^ {6}status: (.*)$/gm)].map((m) => m[1]);

Deno.test("an error answer's stated status picks the class its step checks", () => {
  const { yaml } = convertCurl(DOCS.replaceAll("HOST", "a.test"));
  assert.deepEqual(statusChecks(yaml), [
    "{ lt: 400 }",
    "{ gte: 500 }",
    "{ gte: 500 }",
    "{ gte: 400, lt: 500 }",
    "{ gte: 400, lt: 500 }",
  ]);
});

Deno.test("run against a server: every command gets the answer its page shows", async () => {
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path.startsWith("/v1/objects/hosts/")) {
      const body = await req.json();
      return body.attrs?.check_command
        ? Response.json({ results: [{ code: 200, status: "Object was created." }] })
        : Response.json({ results: [{ code: 500, errors: ["Validation failed"] }] }, {
          status: 500,
        });
    }
    if (path === "/health") return Response.json({ statusCode: 503 }, { status: 503 });
    if (path === "/missing") return Response.json({ status: 404 }, { status: 404 });
    return Response.json({ status: 410 }, { status: 410 });
  });
  await withCurlFlow(DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`), async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /5 steps: 5 passed/);
  });
});
