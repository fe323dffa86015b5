/**
 * `convert openapi`: an item the client names in its create's body under a
 * `pattern`. Found on LemonLDAP::NG 2.16's Manager API (Debian's
 * `liblemonldap-ng-manager-perl`, measured by hand: docs/real-servers.md):
 * `POST /api/v1/menu/cat {confKey, catname}` answers 201 with no body the
 * document describes (`{"message": "Successful operation"}`), and the item
 * is `/api/v1/menu/cat/{confKey}`, where `confKey` is `{type: string,
 * pattern: '^\w[\w\.\-]*$'}`. A property with a pattern was taken for one
 * whose values the server dictates, so the run made none of its own: the
 * body sent a made-up key, and the read, replace, update and delete searched
 * the create's answer for a `confKey` it does not hold and were skipped (20
 * of 41 operations never sent). A pattern the run's own name fits (`confKey-`
 * and eight hex digits) is no such dictate; one it does not fit, or one that
 * cannot be read, still is.
 *
 * The stand-in refuses as LemonLDAP::NG does (400 for a key off the pattern,
 * 409 for one it holds, 404 for one it does not), on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

/** The patterns a key is written under: LemonLDAP::NG's, a slug's, an identifier's. */
const FITTING = ["^\\w[\\w\\.\\-]*$", "^[A-Za-z0-9_-]+$", "^[a-zA-Z][a-zA-Z0-9_.-]{0,62}$"];

/** A Manager-API-like document: menu categories keyed by a `confKey` under `pattern`. */
function document(pattern: string): Record<string, unknown> {
  const ref = { $ref: "#/components/schemas/MenuCat" };
  const body = (schema: unknown) => ({
    required: true,
    content: { "application/json": { schema } },
  });
  const item = { name: "confKey", in: "path", required: true, schema: { type: "string" } };
  const done = (status: string) => ({ [status]: { description: "Successful operation" } });
  return {
    openapi: "3.0.1",
    info: { title: "Manager API", version: "2.0.9" },
    paths: {
      "/api/v1/menu/cat": {
        post: { operationId: "addMenuCat", requestBody: body(ref), responses: done("201") },
      },
      "/api/v1/menu/cat/{confKey}": {
        parameters: [item],
        get: {
          operationId: "getMenuCatByConfKey",
          responses: { 200: { description: "", content: { "application/json": { schema: ref } } } },
        },
        put: {
          operationId: "replaceMenuCat",
          requestBody: body({ $ref: "#/components/schemas/MenuCatUpdate" }),
          responses: done("204"),
        },
        delete: { operationId: "deleteMenuCat", responses: done("204") },
      },
    },
    components: {
      schemas: {
        confKey: { type: "string", pattern },
        MenuCat: {
          type: "object",
          required: ["confKey", "catname"],
          properties: {
            confKey: { $ref: "#/components/schemas/confKey" },
            catname: { type: "string" },
          },
        },
        MenuCatUpdate: { type: "object", properties: { catname: { type: "string" } } },
      },
    },
  };
}

/** Categories as the Manager API keeps them; each create's key and each path's. */
function startServer() {
  const known = new Map<string, unknown>();
  const created: string[] = [];
  const addressed: string[] = [];
  const message = (status: number, text: string) => Response.json({ message: text }, { status });
  const stand = serveStandIn(async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    const base = "/api/v1/menu/cat";
    if (path === base && req.method === "POST") {
      const body = await req.json();
      created.push(String(body.confKey));
      if (typeof body.confKey !== "string" || !/^\w[\w.-]*$/.test(body.confKey)) {
        return message(400, "Invalid input: confKey is missing or malformed");
      }
      if (known.has(body.confKey)) return message(409, "Conflict");
      known.set(body.confKey, body);
      return message(201, "Successful operation");
    }
    const key = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : undefined;
    if (key === undefined) return message(404, "Not found");
    addressed.push(`${req.method} ${key}`);
    if (!known.has(key)) return message(404, `Menu category '${key}' not found`);
    if (req.method === "GET") return Response.json(known.get(key));
    if (req.method === "DELETE") known.delete(key);
    return new Response(null, { status: 204 });
  });
  return { ...stand, created, addressed };
}

for (const pattern of FITTING) {
  Deno.test(`convert openapi: a key its create's body names under ${pattern} is the run's own, twice`, async () => {
    const server = startServer();
    const { summary, runs, flows } = await convertAndRunSuite(document(pattern), server, {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(summary, /^No placeholders to fill in\.$/m);
    assert.equal(server.created.length, 2);
    for (const key of server.created) assert.match(key, /^confKey-[0-9a-f]{8}$/);
    assert.notEqual(server.created[0], server.created[1]);
    // Each run read, replaced and deleted the category it made, by the key it sent.
    const expected = server.created.flatMap((k) =>
      ["GET", "PUT", "DELETE"].map((m) => `${m} ${k}`)
    );
    assert.deepEqual(server.addressed, expected);
    const flow = [...flows.values()].join("\n");
    assert.match(flow, /confKey: confKey-\$\{RANDOM\.HEX_8\}/);
    assert.match(flow, /\/api\/v1\/menu\/cat\/\$\{vars\.confKey\}$/m);
  });
}

/** A pattern the run's own name cannot meet, or one that cannot be read: the document's. */
const UNFITTING = ["^[0-9]+$", "^[a-z]+$", "^\\w+$", "^(?<unclosed"];

for (const pattern of UNFITTING) {
  Deno.test(`convert openapi: a key under ${pattern} is not the run's own name`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-patterned-name-" });
    try {
      await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(pattern)));
      const out = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
      assert.equal(out.code, 0, out.stderr);
      const [file] = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"));
      const flow = Deno.readTextFileSync(`${dir}/flows/${file.name}`);
      assert.doesNotMatch(flow, /confKey-\$\{RANDOM\.HEX_8\}/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
