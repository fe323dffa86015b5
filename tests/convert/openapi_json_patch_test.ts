/**
 * `convert openapi`: a JSON Patch body (RFC 6902: a list of `{op, path,
 * value}`) changes a member of the item its operation addresses. Unleash
 * shares one patch schema, whose example is `{op: replace, path: /type,
 * value: kill-switch}` (a feature's member), between the PATCH of a
 * feature and of a strategy: the strategy's PATCH sent `/type`, which a
 * strategy does not have (400 "does not allow additional properties").
 * The pointer the document gives is kept where it names a member of the
 * item (its PUT's body, else its read's answer); elsewhere the patch
 * replaces the item's first text member. The stand-in applies each patch
 * to the item and refuses a member the item's schema does not have, as
 * Unleash does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };

/** A JSON Patch schema: `op` an enum (or only said, when `bare`), the example a gadget's member. */
function patchSchema(bare: boolean) {
  const op = bare ? { type: "string" } : {
    type: "string",
    enum: ["add", "remove", "replace", "copy", "move", "test"],
    example: "replace",
  };
  return {
    type: "array",
    items: {
      type: "object",
      required: ["path", "op"],
      properties: {
        path: { type: "string", example: "/colour" },
        op,
        from: { type: "string", example: "/colour" },
        value: { example: "red" },
      },
    },
  };
}

/** Widgets (`label`, `size`) and gadgets (`colour`), each made, read, put and patched. */
function document(patchType: string, bare: boolean) {
  const json = (schema: unknown, type = "application/json") => ({
    content: { [type]: { schema } },
  });
  const ok = (schema: unknown) => ({ description: "ok", ...json(schema) });
  const resource = (noun: string, props: Record<string, unknown>, readOnlyPut: boolean) => {
    const item = { type: "object", properties: { id: { ...text, readOnly: true }, ...props } };
    const id = [{ name: "id", in: "path", required: true, schema: text }];
    return {
      [`/${noun}`]: {
        post: {
          tags: [noun],
          operationId: `create_${noun}`,
          requestBody: { required: true, ...json(item) },
          responses: { "201": ok(item) },
        },
      },
      [`/${noun}/{id}`]: {
        get: {
          tags: [noun],
          operationId: `get_${noun}`,
          parameters: id,
          responses: { "200": ok(item) },
        },
        ...(readOnlyPut ? {} : {
          put: {
            tags: [noun],
            operationId: `put_${noun}`,
            parameters: id,
            requestBody: { required: true, ...json({ type: "object", properties: props }) },
            responses: { "200": ok(item) },
          },
        }),
        patch: {
          tags: [noun],
          operationId: `patch_${noun}`,
          parameters: id,
          requestBody: { required: true, ...json(patchSchema(bare), patchType) },
          responses: { "200": ok(item) },
        },
      },
    };
  };
  return {
    openapi: "3.0.3",
    info: { title: "Things", version: "1" },
    paths: {
      // Widgets: their members said by their PUT's body; sprockets by their read's answer only.
      // A widget's first text is a credential, which a patch never writes.
      ...resource("widgets", {
        adminPassword: { ...text, description: "The admin password", example: "a string value" },
        label: { ...text, example: "big" },
        size: { type: "integer" },
      }, false),
      ...resource("gadgets", { colour: text }, false),
      ...resource("sprockets", { size: { type: "integer" }, name: text }, true),
    },
  };
}

/** Items as a server keeps them; a patch of a member the item's kind lacks is refused. */
function thingServer() {
  const members: Record<string, string[]> = {
    widgets: ["label", "size"],
    gadgets: ["colour"],
    sprockets: ["size", "name"],
  };
  const items = new Map<string, Record<string, unknown>>();
  const patches: Record<string, unknown>[] = [];
  const server = serveStandIn(async (req) => {
    const [, kind, id] = new URL(req.url).pathname.split("/");
    if (req.method === "POST") {
      const made = { ...await req.json(), id: crypto.randomUUID() };
      items.set(made.id, made);
      return Response.json(made, { status: 201 });
    }
    const item = items.get(id);
    if (!item) return Response.json({ error: "no such item" }, { status: 404 });
    if (req.method === "GET") return Response.json(item);
    const sent = await req.json();
    if (req.method === "PUT") return Response.json(Object.assign(item, sent));
    patches.push({ kind, sent });
    for (const change of sent) {
      const member = String(change.path).split("/")[1];
      if (!members[kind].includes(member) || !["add", "replace"].includes(change.op)) {
        return Response.json({ error: `${kind} have no ${change.path}` }, { status: 400 });
      }
      item[member] = change.value;
    }
    return Response.json(item);
  });
  return { ...server, patches };
}

for (
  const [type, bare] of [
    ["application/json", false],
    ["application/json-patch+json", true],
  ] as const
) {
  Deno.test(`convert openapi: a JSON Patch (${type}${bare ? ", op only said" : ""}) changes a member the item has`, async () => {
    const server = thingServer();
    const { runs } = await convertAndRunSuite(document(type, bare), server);
    assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
    const sent = (kind: string) => server.patches.find((p) => p.kind === kind)?.sent;
    // Gadgets have the document's `/colour`: kept as written.
    assert.deepEqual(sent("gadgets"), [{
      path: "/colour",
      op: "replace",
      from: "/colour",
      value: "red",
    }]);
    // Widgets and sprockets do not: their first text member, replaced.
    assert.deepEqual(sent("widgets"), [{ op: "replace", path: "/label", value: "big" }]);
    // A name is made the run's own (`value-1a2b3c4d`), as a name a body sends is.
    const [sprocket] = sent("sprockets") as Record<string, unknown>[];
    assert.deepEqual([sprocket.op, sprocket.path, typeof sprocket.value], [
      "replace",
      "/name",
      "string",
    ]);
  });
}
