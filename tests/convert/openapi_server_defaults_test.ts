/**
 * `convert openapi` on a create whose schema requires a property its own
 * description says the server defaults ("Kernel spec name (defaults to
 * default kernel spec for server)", Jupyter Server's `POST /api/kernels`):
 * the generator sent a made-up name (`name-<random>`), which names no kernel
 * spec (500 "No such kernel"), so the create and every step reading its id
 * failed. The property is now left out, as the prose says a client may, and
 * the server picks its default. The stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** A create requiring `required`, each property described by `describe`. */
function document(describe: Record<string, string>, required: string[]) {
  const properties = Object.fromEntries(
    Object.entries(describe).map(([name, description]) => [name, { type: "string", description }]),
  );
  const kernel = {
    type: "object",
    required: ["id", "name"],
    properties: { id: { type: "string", format: "uuid" }, name: { type: "string" } },
  };
  return {
    openapi: "3.0.0",
    info: { title: "kernels", version: "1" },
    paths: {
      "/kernels": {
        post: {
          requestBody: {
            content: { "application/json": { schema: { type: "object", required, properties } } },
          },
          responses: {
            201: { description: "Started", content: { "application/json": { schema: kernel } } },
          },
        },
      },
      "/kernels/{kernel_id}": {
        parameters: [{ name: "kernel_id", in: "path", required: true, schema: { type: "string" } }],
        get: {
          responses: {
            200: { description: "One", content: { "application/json": { schema: kernel } } },
          },
        },
      },
    },
  };
}

/** Kernel specs that exist: only these start, and an absent name is the default one. */
function kernels(bodies: unknown[]) {
  const started = new Set<string>();
  return serveStandIn(async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") {
      const body = await req.json();
      bodies.push(body);
      const name = body.name ?? "python3";
      if (name !== "python3") return Response.json({ message: "No such kernel" }, { status: 500 });
      const id = crypto.randomUUID();
      started.add(id);
      return Response.json({ id, name }, { status: 201 });
    }
    const id = url.pathname.split("/").at(-1)!;
    return started.has(id)
      ? Response.json({ id, name: "python3" })
      : Response.json({ message: "No such kernel" }, { status: 404 });
  });
}

Deno.test("convert openapi: a required property the server defaults, by its own description, is left out", async () => {
  const bodies: unknown[] = [];
  const doc = document({
    name: "Kernel spec name (defaults to default kernel spec for server)",
    path: "API path from root to the cwd of the kernel",
  }, ["name"]);
  const { runs: [run], flows } = await convertAndRunSuite(doc, kernels(bodies));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(bodies, [{}]);
  assert.doesNotMatch(flows.get("default.yaml") ?? [...flows.values()].join("\n"), /name-\$/);
});

Deno.test("convert openapi: a required property whose description says nothing of a default is still sent", async () => {
  const bodies: unknown[] = [];
  const doc = document({ name: "Kernel spec name", path: "The default path, from the root" }, [
    "name",
    "path",
  ]);
  const { runs: [run] } = await convertAndRunSuite(doc, kernels(bodies));
  // The made-up name still names no kernel: the document gave no way to know one.
  assert.equal(run.code, 1, run.stdout);
  assert.deepEqual(Object.keys(bodies[0] as object).sort(), ["name", "path"]);
});
