/**
 * `convert openapi`: a name in an item of a request body's list (a matcher's, a rule's) keeps
 * its sample; only the names of what the request makes are the run's own
 * (`<field>-${RANDOM.HEX_8}`). The run's suffix keeps a second run's item apart from the
 * first's, but an item of a list is no item of its own: it belongs to what the request makes
 * (new each run), or names something else. Alertmanager's silence matches labels by
 * `matchers[].name`, a label name (letters, digits, `_`): `name-866c385e` was refused ("invalid
 * label name", 400), and so its read and delete had no silence
 * (tests/real/alertmanager_openapi_test.ts).
 *
 * The stand-in keeps the silences' names unique and checks the matchers', on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };

/** A named item of a list: `name` and `value` required. */
const pair = {
  type: "object",
  required: ["name", "value"],
  properties: { name: text, value: text },
};

const document = {
  openapi: "3.0.3",
  info: { title: "Silences", version: "1" },
  paths: {
    "/silences": {
      post: {
        tags: ["silence"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name", "matchers", "rules"],
                properties: {
                  name: text,
                  matchers: { type: "array", items: pair },
                  rules: { type: "array", items: { $ref: "#/components/schemas/rule" } },
                },
              },
            },
          },
        },
        responses: { "201": { description: "made" } },
      },
    },
  },
  components: {
    schemas: { rule: { type: "object", required: ["title"], properties: { title: text } } },
  },
};

Deno.test("convert openapi: names in a body's list items keep their sample, the body's own name is the run's", async () => {
  const names = new Set<string>();
  const refused: string[] = [];
  const label = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
  const server = serveStandIn(async (req) => {
    const body = await req.json();
    const items = [
      ...body.matchers,
      ...body.rules.map((r: { title: string }) => ({ name: r.title })),
    ];
    const good = !names.has(body.name) && items.length > 0 &&
      items.every((m: { name: string }) => label.test(m.name));
    if (!good) refused.push(JSON.stringify(body));
    names.add(body.name);
    return new Response(null, { status: good ? 201 : 400 });
  });
  const { runs, summary } = await convertAndRunSuite(document, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${refused}\n${run.stdout}${summary}`);
  assert.equal(names.size, 2, "each run made a silence of its own name");
});
