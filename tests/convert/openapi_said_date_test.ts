/**
 * `convert openapi` on texts the document calls dates only in words: no
 * `format: date`, a description that opens by naming a date. A Sails movie
 * API's actor create (2022, `sails-hook-swagger-generator`) takes
 * `birthday` as a query text described "date of birth, birthday"; it was
 * sent `string`, which its server turns into a `Date` and then fails on
 * (500, "Invalid time value"), so the API's one create never succeeded.
 * Such a text, of a parameter or of a body member, is now sent as a
 * `format: date` text is (`2024-01-01`).
 *
 * The stand-in runs on 127.0.0.1 and refuses a text it cannot read as a date.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { saysDate } from "../../lib/convert/openapi/said_date.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = (description: string) => ({ type: "string", description });

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "people", version: "1" },
  paths: {
    "/people": {
      post: {
        tags: ["people"],
        parameters: [{
          in: "query",
          name: "born",
          required: true,
          schema: { type: "string" },
          description: "date of birth",
        }],
        requestBody: json({
          type: "object",
          properties: { since: text("Start date of the membership"), name: text("Full name") },
          required: ["since", "name"],
        }),
        responses: { "200": { description: "Made", ...json({ type: "object" }) } },
      },
    },
  },
};

Deno.test("convert openapi: a text its description calls a date is sent a date", async () => {
  const seen: string[] = [];
  const server = serveStandIn(async (req) => {
    const born = new URL(req.url).searchParams.get("born") ?? "";
    const { since, name } = await req.json();
    seen.push(`${born} ${since} ${name}`);
    const dates = [born, since].every((d) => !Number.isNaN(Date.parse(d)));
    return dates
      ? Response.json({ ok: true })
      : new Response("Invalid time value", { status: 500 });
  });
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, server);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout + seen.join("\n"));
  // The name is no date.
  assert.ok(seen.every((s) => Number.isNaN(Date.parse(s.split(" ")[2]))), seen.join("\n"));
});

Deno.test("saysDate: only a description that opens by naming a date", () => {
  assert.ok(saysDate({ type: "string", description: "date of birth, birthday" }));
  assert.ok(saysDate({ type: "string", description: "The release date of the film" }));
  assert.ok(saysDate({ type: "string", description: "Birthday" }));
  assert.ok(!saysDate({ type: "string", description: "Sort the list by date" }));
  assert.ok(!saysDate({ type: "string", description: "Update the record" }));
  assert.ok(!saysDate({ type: "string", format: "uuid", description: "Date of the id" }));
  assert.ok(!saysDate({ type: "string", enum: ["a"], description: "Date kind" }));
  assert.ok(!saysDate({ type: "integer", description: "Date as a Unix time" }));
});
