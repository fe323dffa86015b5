/**
 * `convert openapi` on a create whose integer member the document bounds to
 * exactly the numbers of n digits (`minimum: 1000000000000`, `maximum:
 * 9999999999999`: a 13-digit code, as a FastAPI model's `Field(ge=…, le=…)`
 * writes it). The converter sent the lowest number the bounds allow, the same
 * in every flow and every run, and a server keeping the code unique refused the
 * second create 400 (found on a FastAPI library API, 2026-12-01: its books'
 * ISBN; the second flow's book and every book of a second run were refused).
 *
 * What the converter does (digit_codes.ts): bounds that are exactly one digit
 * count's numbers say the member is a code of that many digits, not a
 * quantity; the body sends `${RANDOM.DIGITS_<n>}`, a fresh number of n digits
 * within those same bounds. Run twice on one stand-in that refuses a code it
 * holds or one out of bounds; a member bounded otherwise keeps its number.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

function document() {
  const properties = {
    title: { type: "string" },
    code: { type: "integer", minimum: 1000000000000, maximum: 9999999999999 },
    copies: { type: "integer", minimum: 1, maximum: 50 },
  };
  const schema = { type: "object", required: Object.keys(properties), properties };
  const create = {
    requestBody: { required: true, content: { "application/json": { schema } } },
    responses: { "201": { description: "Made" } },
  };
  return {
    openapi: "3.0.2",
    info: { title: "Shelf", version: "1" },
    paths: { "/volumes": { post: create }, "/spares": { post: create } },
  };
}

function server() {
  const codes = new Set<number>();
  return serveStandIn(async (req) => {
    const body = await req.json().catch(() => ({}));
    const code = body?.code;
    if (typeof code !== "number" || code < 1e12 || code > 9999999999999) {
      return Response.json({ detail: `Code ${code} is not 13 digits` }, { status: 422 });
    }
    if (body.copies !== 1) return Response.json({ detail: "copies changed" }, { status: 422 });
    if (codes.has(code)) {
      return Response.json({ detail: "A volume with this code exists" }, { status: 400 });
    }
    codes.add(code);
    return Response.json({ id: codes.size, ...body }, { status: 201 });
  });
}

Deno.test("convert openapi: a member bounded to n-digit numbers is a fresh code, twice on one server", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(document(), server(), { runs: 2 });
  const flow = [...flows.values()].join("\n");
  assert.match(flow, /code: \$\{RANDOM\.DIGITS_13\}/, flow);
  assert.match(flow, /copies: 1\n/, flow);
  for (const run of runs) {
    assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /2 steps?: 2 passed/, run.stdout);
  }
});
