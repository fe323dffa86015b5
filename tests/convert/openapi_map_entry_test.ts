/**
 * `convert openapi`: a required object of a request body that declares no properties but what
 * each entry holds (`additionalProperties: {schema}`, a map) is sent with one entry, not empty:
 * a map is there to say something. Alertmanager's `postAlerts` took `[{"labels": {}}]` and
 * refused it ("at least one label pair required", 400; tests/real/alertmanager_openapi_test.ts).
 * The entry's key is `key` (a name that any label, tag or header syntax takes), its value made
 * from the entry's schema; a map whose entries are free (`additionalProperties: true`, or no
 * schema) stays empty, as nothing says what an entry holds.
 *
 * The stand-in refuses an empty map, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const map = (entry: unknown) => ({ type: "object", additionalProperties: entry });

/** POST /alerts: a list of alerts whose `labels` map of texts is required. */
const alerts = {
  "/alerts": {
    post: {
      tags: ["alert"],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "array",
              items: {
                type: "object",
                required: ["labels"],
                properties: {
                  labels: { $ref: "#/components/schemas/labelSet" },
                  annotations: { $ref: "#/components/schemas/labelSet" },
                },
              },
            },
          },
        },
      },
      responses: { "200": { description: "taken" } },
    },
  },
};

/** POST /quotas: a map of whole numbers and a map of objects, each with a required `name`. */
const quotas = {
  "/quotas": {
    post: {
      tags: ["quota"],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["limits", "owners", "extra"],
              properties: {
                limits: map({ type: "integer", minimum: 1 }),
                owners: map({
                  type: "object",
                  required: ["name"],
                  properties: { name: { type: "string" } },
                }),
                extra: map(true),
              },
            },
          },
        },
      },
      responses: { "200": { description: "set" } },
    },
  },
};

const document = {
  openapi: "3.0.3",
  info: { title: "Maps", version: "1" },
  paths: { ...alerts, ...quotas },
  components: { schemas: { labelSet: map({ type: "string" }) } },
};

/** Whether `value` is a map of at least one entry, each named as a label may be and `ok`. */
function filled(value: unknown, ok: (entry: unknown) => boolean): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 &&
    entries.every(([k, v]) => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(k) && ok(v));
}

Deno.test("convert openapi: a required map of a request body is sent with one entry made from its entries' schema; a free one stays empty", async () => {
  const refused: string[] = [];
  const server = serveStandIn(async (req) => {
    const body = await req.json();
    const path = new URL(req.url).pathname;
    const good = path === "/alerts"
      ? Array.isArray(body) && body.length > 0 &&
        body.every((a) => filled(a.labels, (v) => typeof v === "string"))
      : filled(body.limits, (v) => Number.isInteger(v) && (v as number) >= 1) &&
        filled(body.owners, (v) => typeof (v as { name?: unknown }).name === "string") &&
        JSON.stringify(body.extra) === "{}";
    if (!good) refused.push(`${path} ${JSON.stringify(body)}`);
    return good
      ? new Response(null, { status: 200 })
      : Response.json("at least one label pair required", { status: 400 });
  });
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code, 0, `${refused.join("\n")}\n${runs[0].stdout}${summary}`);
  assert.deepEqual(refused, []);
});
