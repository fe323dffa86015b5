/**
 * `convert openapi`: an item its create names by a body property the item's
 * parameter is spelled from. Found on Unleash 8.2 (tests/real/
 * unleash_openapi_test.ts): `POST /context/{contextField}/legal-values`
 * takes `{value, description}` and answers 200 "This response has no
 * body."; the item is `DELETE …/legal-values/{legalValue}`. The parameter
 * is the collection's noun (`legal-values` → `legalValue`), whose last word
 * is the body's `value`; or the noun and a property (`{tagName}` of
 * `/tags`, the body's `name`). The delete read `legalValue` from the
 * create's empty answer and was never sent. Now the body's value is a var
 * the path sends too: the document's example where it gives one (a legal
 * value need not be new), else the run's own. The evidence is the
 * document's spelling of the parameter from its collection and the
 * property, under the path the create posts to. A property whose document
 * states its value (an example, an enum, a kind named only in words) keeps
 * that value, and the path is sent the same: PowerDNS 4.7's
 * `POST …/metadata {kind, metadata}` takes only the kinds it knows (422 for
 * a run-made one), and its document names one only in words ("The SOA-EDIT
 * metadata item"); only a free-text property gets the run's own value.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const noBody = { "200": { description: "This response has no body." } };

/** A legal value (the noun itself, with an example) and a tag (noun and property, free text). */
function document() {
  const field = {
    name: "field",
    in: "path",
    required: true,
    schema: { type: "string" },
    example: "field",
  };
  const param = (name: string) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  });
  const zone = { ...param("zone"), example: "z" };
  return {
    openapi: "3.0.3",
    info: { title: "Values", version: "1" },
    paths: {
      "/fields/{field}/legal-values": {
        post: {
          operationId: "addLegalValue",
          parameters: [field],
          requestBody: json({
            type: "object",
            required: ["value"],
            properties: {
              value: { type: "string", example: "#c154c1" },
              description: { type: "string", example: "Deep fuchsia" },
            },
          }),
          responses: noBody,
        },
      },
      "/fields/{field}/legal-values/{legalValue}": {
        delete: {
          operationId: "deleteLegalValue",
          parameters: [field, param("legalValue")],
          responses: noBody,
        },
      },
      "/zones/{zone}/metadata": {
        post: {
          operationId: "createMetadata",
          parameters: [zone],
          requestBody: json({ $ref: "#/components/schemas/Metadata" }),
          responses: { "204": { description: "OK" } },
        },
      },
      "/zones/{zone}/metadata/{metadata_kind}": {
        parameters: [zone, { ...param("metadata_kind"), description: "The kind of metadata" }],
        get: { operationId: "getMetadata", responses: noBody },
        delete: { operationId: "deleteMetadata", responses: { "204": { description: "OK" } } },
      },
      "/modes": {
        post: {
          operationId: "createMode",
          requestBody: json({
            type: "object",
            required: ["name"],
            properties: { name: { type: "string", enum: ["fast", "slow"] } },
          }),
          responses: { "204": { description: "OK" } },
        },
      },
      "/modes/{modeName}": {
        delete: { operationId: "deleteMode", parameters: [param("modeName")], responses: noBody },
      },
      "/tags": {
        post: {
          operationId: "createTag",
          requestBody: json({
            type: "object",
            required: ["name"],
            properties: { name: { type: "string" }, color: { type: "string" } },
          }),
          responses: { "201": { description: "Created." } },
        },
      },
      "/tags/{tagName}": {
        get: { operationId: "getTag", parameters: [param("tagName")], responses: noBody },
      },
    },
    components: {
      schemas: {
        Zone: {
          type: "object",
          properties: { soa_edit: { type: "string", description: "The SOA-EDIT metadata item" } },
        },
        Metadata: {
          type: "object",
          properties: {
            kind: { type: "string", description: "Name of the metadata" },
            metadata: { type: "array", items: { type: "string" } },
          },
        },
      },
    },
  };
}

/** Keeps what each create made; a read or delete of anything else is 404. */
function startServer() {
  const values = new Set<string>();
  const tags = new Set<string>();
  const kinds = new Set<string>();
  const modes = new Set<string>();
  const seen: string[] = [];
  const stand = serveStandIn(async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    seen.push(`${req.method} ${path}`);
    const notFound = () => Response.json({ message: "Not found" }, { status: 404 });
    if (req.method === "POST" && path === "/fields/field/legal-values") {
      const body = await req.json();
      if (typeof body.value !== "string") return Response.json({}, { status: 400 });
      values.add(body.value);
      return new Response(null, { status: 200 });
    }
    const value = /^\/fields\/field\/legal-values\/(.+)$/.exec(path)?.[1];
    if (req.method === "DELETE" && value !== undefined) {
      return values.delete(value) ? new Response(null, { status: 200 }) : notFound();
    }
    if (req.method === "POST" && path === "/tags") {
      const body = await req.json();
      if (typeof body.name !== "string") return Response.json({}, { status: 400 });
      tags.add(body.name);
      return new Response(null, { status: 201 });
    }
    // Only the kinds and modes the server knows: anything else is refused, as PowerDNS does.
    const known = (v: unknown, of: string[]) => typeof v === "string" && of.includes(v);
    const refused = () => Response.json({ error: "Unknown" }, { status: 422 });
    if (req.method === "POST" && path === "/zones/z/metadata") {
      const body = await req.json();
      if (!known(body.kind, ["SOA-EDIT"])) return refused();
      kinds.add(body.kind);
      return new Response(null, { status: 204 });
    }
    const kind = /^\/zones\/z\/metadata\/(.+)$/.exec(path)?.[1];
    if (kind !== undefined && !known(kind, ["SOA-EDIT"])) return refused();
    if (req.method === "GET" && kind !== undefined) {
      return kinds.has(kind) ? new Response(null, { status: 200 }) : notFound();
    }
    if (req.method === "DELETE" && kind !== undefined) {
      return kinds.delete(kind) ? new Response(null, { status: 204 }) : notFound();
    }
    if (req.method === "POST" && path === "/modes") {
      const body = await req.json();
      if (!known(body.name, ["fast", "slow"])) return refused();
      modes.add(body.name);
      return new Response(null, { status: 204 });
    }
    const mode = /^\/modes\/(.+)$/.exec(path)?.[1];
    if (req.method === "DELETE" && mode !== undefined) {
      return modes.delete(mode) ? new Response(null, { status: 200 }) : notFound();
    }
    const tag = /^\/tags\/(.+)$/.exec(path)?.[1];
    if (req.method === "GET" && tag !== undefined) {
      return tags.has(tag) ? new Response(null, { status: 200 }) : notFound();
    }
    return notFound();
  });
  return { ...stand, seen, values, tags, kinds, modes };
}

Deno.test("convert openapi: an item named by a body property its parameter is spelled from is sent at that value", async () => {
  const server = startServer();
  try {
    const { summary, runs, flows } = await convertAndRunSuite(document(), server, { runs: 2 });
    for (const run of runs) {
      assert.equal(run.code, 0, run.stdout + run.stderr + server.seen.join("\n"));
    }
    // The document's example value, sent in the body and, encoded, in the path.
    assert.ok(
      server.seen.includes("DELETE /fields/field/legal-values/#c154c1"),
      server.seen.join("\n"),
    );
    assert.equal(server.values.size, 0, "each run deletes the value it added");
    // A kind the document names only in words, and an enum's value: kept, in body and path alike.
    for (const sent of ["GET /zones/z/metadata/SOA-EDIT", "DELETE /zones/z/metadata/SOA-EDIT"]) {
      assert.equal(server.seen.filter((s) => s === sent).length, 2, server.seen.join("\n"));
    }
    assert.equal(server.seen.filter((s) => s === "DELETE /modes/fast").length, 2);
    assert.deepEqual([server.kinds.size, server.modes.size], [0, 0], "each run deletes its own");
    // A free text name is the run's own, read back at the path.
    const reads = server.seen.filter((s) => s.startsWith("GET /tags/"));
    assert.equal(reads.length, 2);
    assert.match(reads[0], /^GET \/tags\/tagName-[0-9a-f]{8}$/);
    assert.notEqual(reads[0], reads[1]);
    assert.doesNotMatch(summary, /legalValue|tagName/);
    // The var says where its value came from: the document's example, kept; the run's own name.
    const all = [...flows.values()].join("\n");
    assert.ok(
      all.includes(
        "# the document's value: the client names what POST /fields/{field}/legal-values makes",
      ),
      all,
    );
    assert.ok(all.includes("# the run's own: the client names what POST /tags makes"), all);
    assert.match(
      flows.get("legal_values.yaml") ?? [...flows.values()].join("\n"),
      /legal-values\/\$\{vars\./,
    );
  } finally {
    await server.close();
  }
});
