/**
 * A path parameter at the end of a path whose parent's read answers one
 * text is that text: Signal K's resources API answers
 * `GET /resources/{resourceType}/_providers/_default` with the plugin id of
 * the default provider, and `POST …/_providers/_default/{pluginId}` sets
 * it; the parameter was a placeholder (`string`: 400 "not found"). Where
 * the read answers an object, or the document gives the parameter a value,
 * nothing changes.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = (schema: unknown, status = "default") => ({
  [status]: {
    description: "The id of the default provider",
    content: { "application/json": { schema } },
  },
});

/** A providers document: the default's read answers `answer`; the POST under it sets it. */
function providersDocument(answer: unknown, pluginId: Record<string, unknown> = {}) {
  return {
    openapi: "3.0.0",
    info: { title: "Providers", version: "1" },
    paths: {
      "/providers/_default": { get: { summary: "The default provider.", responses: answer } },
      "/providers/_default/{pluginId}": {
        parameters: [{
          name: "pluginId",
          in: "path",
          required: true,
          schema: { type: "string" },
          ...pluginId,
        }],
        post: {
          summary: "Set the default provider.",
          responses: { "200": { description: "OK" } },
        },
      },
    },
  };
}

/** The stand-in: one provider, `resources-provider`, the default. */
function providers(seen: string[]) {
  return serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (req.method === "GET") return Response.json("resources-provider");
    return path === "/providers/_default/resources-provider"
      ? Response.json({ state: "COMPLETED" })
      : Response.json({ message: "Provider not found" }, { status: 400 });
  });
}

Deno.test("convert openapi reads a parameter at the end of a path from its parent's answer of one text", async () => {
  for (const answer of [text({ type: "string" }), text({ type: "string" }, "200")]) {
    const seen: string[] = [];
    const { runs } = await convertAndRunSuite(providersDocument(answer), providers(seen));
    assert.equal(runs[0].code, 0, runs[0].stdout);
    assert.ok(seen.includes("POST /providers/_default/resources-provider"), seen.join(", "));
  }
});

Deno.test("a parent answering an object, or a parameter the document gives a value, is left as it was", async () => {
  const seen: string[] = [];
  await convertAndRunSuite(providersDocument(text({ type: "object" }, "200")), providers(seen));
  assert.ok(seen.includes("POST /providers/_default/string"), seen.join(", "));
  const given: string[] = [];
  await convertAndRunSuite(
    providersDocument(text({ type: "string" }), { example: "my-provider" }),
    providers(given),
  );
  assert.ok(given.includes("POST /providers/_default/my-provider"), given.join(", "));
});
