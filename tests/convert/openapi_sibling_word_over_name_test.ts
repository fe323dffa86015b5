/**
 * `convert openapi` on a path parameter whose values the document's own paths spell out beside
 * it, which only shares its name with a member of another resource's create. MITRE Caldera
 * 5.3.0's served Swagger 2.0 document (aiohttp-apispec; measured by hand 2026-11-30,
 * docs/real-servers.md) has `GET /config/{name}` beside `PATCH /config/main` and
 * `PATCH /config/agents`, and no create or listing of configurations; the converter read
 * `{name}` from the `name` an ability's create answers, so the read was sent an ability's name
 * (404) or, with the create refused, skipped. The words the document puts at the parameter's
 * place are its own values for it, as an example is (sibling_words.ts): they now beat the guess
 * by name, and the first is sent (`main`). Where no path spells a value (`/profiles/{name}`),
 * the member of the create's answer is still read.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = { "200": { description: "" } };
const ability = {
  type: "object",
  properties: { id: { type: "integer" }, name: { type: "string" } },
  required: ["name"],
};
const named = [{ name: "name", in: "path", required: true, schema: { type: "string" } }];

/** Abilities made here; two configurations the server has, each also changed at its own path. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Red team", version: "1" },
    paths: {
      "/abilities": {
        post: {
          requestBody: { required: true, content: json(ability) },
          responses: { "201": { description: "", content: json(ability) } },
        },
      },
      "/config/{name}": { parameters: named, get: { responses: ok } },
      "/config/main": { patch: { responses: ok } },
      "/config/agents": { patch: { responses: ok } },
      "/profiles/{name}": { parameters: named, get: { responses: ok } },
    },
  };
}

/** Knows its two configurations and the abilities the run made; refuses anything else. */
function server(seen: string[]) {
  const abilities = new Set<string>();
  return serveStandIn(async (req) => {
    const [collection, key = ""] = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (collection === "abilities") {
      const body = await req.json();
      abilities.add(body.name);
      return Response.json({ id: abilities.size, ...body }, { status: 201 });
    }
    const name = decodeURIComponent(key);
    const found = collection === "config" ? ["main", "agents"].includes(name) : abilities.has(name);
    seen.push(`${req.method} /${collection}/${name} ${found ? 200 : 404}`);
    return found ? Response.json({ name }) : Response.json({ error: name }, { status: 404 });
  });
}

Deno.test("convert openapi: the words a document's paths put at a parameter's place beat another resource's member", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document(), server(seen));
  const steps = [...flows.values()].join("\n");
  assert.ok(seen.includes("GET /config/main 200"), `${seen.join()}\n${summary}\n${steps}`);
  assert.doesNotMatch(summary, /\{name\} of GET \/config\/\{name\} ←/, summary);
  // The profile, at whose place no path spells a value, still reads the ability the run made.
  assert.match(summary, /\{name\} of GET \/profiles\/\{name\} ← POST \/abilities/, summary);
  assert.ok(seen.some((s) => /^GET \/profiles\/name-\w+ 200$/.test(s)), seen.join());
  assert.match(runs[0].stdout, /5 steps: 5 passed/, runs[0].stdout);
});
