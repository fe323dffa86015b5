/**
 * `convert openapi` on a body whose text fields the document types only as
 * `string` with a `maxLength` (a Joi `.max(10)`, `.length(6)`, which
 * hapi-swagger writes so; a column's size): the converter makes such a field
 * the run's own (`code-${RANDOM.HEX_8}`, so a UNIQUE column takes a second
 * run), and sent 13 characters where the server takes 10: every create was
 * refused 400 though the document said the limit (found on a hapi-swagger
 * document, 2026-11-29).
 *
 * What the converter does (length_limits.ts, run_values.ts): the made text
 * keeps within the property's `maxLength`: its stem cut (`c-…`), else the
 * random part alone, else the generator's own value where not even that
 * fits. Run twice on one stand-in that refuses a text over its limit and a
 * code it already holds.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const LIMITS: Record<string, number | undefined> = {
  code: 10,
  label: 8,
  ref: 6,
  reference: 12,
  note: undefined,
};

function document() {
  const properties = Object.fromEntries(
    Object.entries(LIMITS).map((
      [name, max],
    ) => [name, max === undefined ? { type: "string" } : { type: "string", maxLength: max }]),
  );
  const schema = { type: "object", required: Object.keys(LIMITS), properties };
  return {
    openapi: "3.0.3",
    info: { title: "Codes", version: "1" },
    paths: {
      "/codes": {
        post: {
          requestBody: { required: true, content: { "application/json": { schema } } },
          responses: { "201": { description: "Made" } },
        },
      },
    },
  };
}

function server() {
  const codes = new Set<string>();
  return serveStandIn(async (req) => {
    const body = await req.json().catch(() => ({}));
    for (const [name, max] of Object.entries(LIMITS)) {
      const v = body?.[name];
      if (typeof v !== "string" || v === "" || (max !== undefined && v.length > max)) {
        const message = `"${name}" length must be less than or equal to ${max}`;
        return Response.json({ statusCode: 400, message }, { status: 400 });
      }
    }
    if (codes.has(body.code)) return Response.json({ message: "code taken" }, { status: 409 });
    codes.add(body.code);
    return Response.json({ id: codes.size, ...body }, { status: 201 });
  });
}

Deno.test("convert openapi: text made per run keeps within its maxLength, twice on one server", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(document(), server(), { runs: 2 });
  const flow = [...flows.values()].join("\n");
  assert.match(flow, /code: c-\$\{RANDOM\.HEX_8\}/, flow);
  assert.match(flow, /label: \$\{RANDOM\.HEX_8\}/, flow);
  assert.match(flow, /reference: ref-\$\{RANDOM\.HEX_8\}/, flow);
  assert.match(flow, /ref: string/, flow);
  assert.match(flow, /note: note-\$\{RANDOM\.HEX_8\}/, flow);
  for (const run of runs) {
    assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /1 steps?: 1 passed/, run.stdout);
  }
});
