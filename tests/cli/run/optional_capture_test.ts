/**
 * `optional: true` on a capture: finding nothing leaves it unset instead of
 * failing the step, and the steps that read it are skipped, each saying so.
 * A converted OpenAPI suite searches an answer the document does not
 * describe for an item's key (`$.json..['slug']`): a create the server
 * accepted passes whether or not its answer holds it. Without `optional`, a
 * capture that finds nothing still fails its step; a value other than true
 * or false is refused before any request, positioned.
 */
import assert from "node:assert/strict";
import { runFlowText, stepStatuses } from "../../support/cli.ts";

const FLOW = (optional: string) =>
  `name: optional capture
steps:
  - name: create
    request:
      method: POST
      url: \${ENV.BASE_URL}/articles
    capture:
      slug: {path: "$.json..['slug']", first: true, optional: ${optional}}
  - name: read
    if:
      value: \${steps.create.capture.slug}
      exists: true
    request:
      url: \${ENV.BASE_URL}/articles/\${steps.create.capture.slug}
`;

/** Answers creates with `answer`, counting every request. */
function server(answer: unknown) {
  const seen: string[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    return Response.json(req.method === "POST" ? answer : { ok: true }, {
      status: req.method === "POST" ? 201 : 200,
    });
  });
  return { seen, base: `http://127.0.0.1:${(s.addr as Deno.NetAddr).port}`, s };
}

async function run(flow: string, answer: unknown) {
  const app = server(answer);
  try {
    return { ...await runFlowText(flow, { BASE_URL: app.base }), seen: app.seen };
  } finally {
    await app.s.shutdown();
  }
}

const steps = stepStatuses;

Deno.test("an optional capture that finds nothing passes its step; the step reading it is skipped", async () => {
  const got = await run(FLOW("true"), { article: { title: "t" } });
  assert.equal(got.code, 0, got.stdout + got.stderr);
  assert.deepEqual(steps(got.report), ["create passed", "read skipped"]);
  assert.deepEqual(got.seen, ["POST /articles"]);
});

Deno.test("an optional capture that finds its value captures it as any capture does", async () => {
  const got = await run(FLOW("true"), { article: { slug: "how-to", author: { slug: "ann" } } });
  assert.equal(got.code, 0, got.stdout + got.stderr);
  assert.deepEqual(steps(got.report), ["create passed", "read passed"]);
  assert.deepEqual(got.seen, ["POST /articles", "GET /articles/how-to"]);
});

Deno.test("without optional, a capture that finds nothing fails its step", async () => {
  const got = await run(FLOW("false"), { article: {} });
  assert.equal(got.code, 1, got.stdout + got.stderr);
  assert.deepEqual(steps(got.report), ["create failed", "read skipped"]);
});

Deno.test("optional must be true or false: refused before any request, positioned", async () => {
  const got = await run(FLOW("maybe"), {});
  assert.equal(got.code, 2, got.stdout + got.stderr);
  assert.match(
    got.stderr,
    /f\.yaml:8:\d+.*Expected "optional" in .* to be true or false, got the string "maybe"/s,
  );
  assert.deepEqual(got.seen, []);
});
