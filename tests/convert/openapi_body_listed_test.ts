/**
 * `convert openapi`: a request body property that names an item the API
 * lists but nothing in the document makes, said by the body's description
 * ("Object containing the path of the module to run", for `{path}`), found
 * on recon-ng's web API (tests/real/recon_openapi_test.ts): the run sent
 * the type's sample (`"path": "string"`), which names no module (404), so
 * the task it would have made was never read either. The value is the
 * first item the noun's listing answers (`GET /modules/` →
 * `{modules: [..]}`, each the handle of `/modules/{module}`), read before
 * the call. A create of the noun itself (a label's "the name of the
 * label"), a property the document gives a value of, or one whose name is
 * no word that names a thing ("the version of the module") keeps its
 * sample.
 *
 * The stand-in server below answers as recon-web does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const text = { type: "string" };
const list = (name: string) => ({
  type: "object",
  required: [name],
  properties: { [name]: { type: "array", items: text } },
});
const ok = (schema: unknown) => ({ "200": { description: "OK", content: json(schema) } });
/** A body of one required text property, described as the document's body is. */
const body = (name: string, description: string) => ({
  description,
  content: json({ required: [name], properties: { [name]: text } }),
});

/** Modules listed, never made; a task runs one; a note names one too; labels made and listed. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Runner", version: "1" },
    paths: {
      "/tasks/": {
        post: {
          requestBody: body("path", "Object containing the path of the module to run"),
          responses: {
            "201": { description: "Made", content: json({ properties: { task: text } }) },
          },
        },
      },
      "/modules/": { get: { responses: ok(list("modules")) } },
      "/modules/{module}": {
        get: {
          parameters: [{ name: "module", in: "path", required: true, schema: text }],
          responses: ok({ properties: { name: text } }),
        },
      },
      "/notes/": {
        post: {
          requestBody: {
            description:
              "Object naming the module: the name of the module, the version of the module",
            content: json({
              required: ["name", "version"],
              properties: { name: { ...text, default: "red" }, version: text },
            }),
          },
          responses: ok(text),
        },
      },
      "/labels/": {
        get: { responses: ok(list("labels")) },
        post: {
          requestBody: body("name", "Object containing the name of the label"),
          responses: ok(text),
        },
      },
      "/labels/{label}": {
        delete: {
          parameters: [{ name: "label", in: "path", required: true, schema: text }],
          responses: { "204": { description: "Gone" } },
        },
      },
    },
  };
}

/** One module; a task of any other path is refused (404), as recon-web answers. */
function runner() {
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/modules/") return Response.json({ modules: ["reporting/note"] });
    if (pathname.startsWith("/modules/")) return Response.json({ name: "Note" });
    if (pathname === "/labels/" && req.method === "GET") return Response.json({ labels: ["x"] });
    if (req.method === "DELETE") return new Response(null, { status: 204 });
    const sent = await req.json();
    if (pathname === "/tasks/" && sent.path !== "reporting/note") {
      return Response.json({ message: "Not Found" }, { status: 404 });
    }
    if (pathname === "/tasks/") return Response.json({ task: "t-1" }, { status: 201 });
    return Response.json(JSON.stringify(sent));
  });
}

Deno.test("a body property said to name an item of a listed noun takes the listing's first item", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), runner(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  const all = [...flows.values()].join("\n");
  assert.match(summary, /path of POST \/tasks\/ ← GET \/modules\/ \$\.json\.modules\[0\]/);
  // The listing is read before the task that names its item.
  assert.ok(all.indexOf("get_modules") < all.indexOf("post_tasks"), all);
  // A label's create names the label it makes; a name the document gives, and a version (no
  // word that names a thing): each keeps its value.
  assert.doesNotMatch(summary, /(name|version) of POST \/(labels|notes)\/ ←/);
  assert.match(all, /name: red/);
});
