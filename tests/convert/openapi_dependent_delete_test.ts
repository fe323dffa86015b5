/**
 * `convert openapi` on items made from other items: a create whose body
 * names an item an earlier create made (a Django REST API's `POST /plays`
 * with `{playbook}`, `POST /tasks` with `{playbook, play, file}`), each
 * collection a sibling of the others, so every DELETE has the same depth
 * and they ran in document order: the playbook's first. The server deletes
 * what was made from it with it (a foreign key `ON DELETE CASCADE`), so the
 * six DELETEs after it answered 404. What an item was made from is now
 * deleted after it: a DELETE runs before the DELETE of every item its own
 * item's create read, directly or through other creates. A server that
 * refuses to delete an item still in use (409) wants the same order, and so
 * does an item made under its parent's path and deleted at its own
 * (`POST /notes/{id}/comments`, `DELETE /comments/{id}`). The stand-ins run
 * on 127.0.0.1 and each suite runs twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ID = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];

/** Each kind and the kind its items are made from (the body's property of that name). */
const KINDS: Record<string, string | undefined> = {
  folder: undefined,
  note: "folder",
  comment: "note",
};

/** A collection of `kind`: create (naming its parent's id), list, read, delete when `deletable`. */
function collection(kind: string, deletable: boolean) {
  const parent = KINDS[kind];
  const props: Record<string, unknown> = {
    id: { type: "integer", readOnly: true },
    title: { type: "string" },
  };
  if (parent) props[parent] = { type: "integer" };
  const item = {
    type: "object",
    required: ["title", ...parent ? [parent] : []],
    properties: props,
  };
  return {
    [`/${kind}s`]: {
      get: {
        tags: ["all"],
        responses: { 200: { description: "All", ...json({ type: "array", items: item }) } },
      },
      post: {
        tags: ["all"],
        requestBody: json(item),
        responses: { 201: { description: "Made", ...json(item) } },
      },
    },
    [`/${kind}s/{id}`]: {
      parameters: ID,
      get: { tags: ["all"], responses: { 200: { description: "One", ...json(item) } } },
      ...deletable
        ? { delete: { tags: ["all"], responses: { 204: { description: "Gone" } } } }
        : {},
    },
  };
}

/**
 * `collection` of comments made under their note's path (`POST /notes/{id}/comments`), read and
 * deleted at their own (`/comments/{id}`), as Rails' shallow nesting routes them.
 */
function shallowComments() {
  const { "/comments": made, "/comments/{id}": item } = collection("comment", true);
  const post = made.post as { requestBody: { content: Record<string, { schema: Schema }> } };
  const schema = post.requestBody.content["application/json"].schema;
  const body = {
    ...schema,
    required: ["title"],
    properties: { ...schema.properties, note: { type: "integer", readOnly: true } },
  };
  return {
    "/notes/{id}/comments": { parameters: ID, ...made, post: { ...post, requestBody: json(body) } },
    "/comments/{id}": item,
  };
}

type Schema = { properties: Record<string, unknown> };

/** The document: parents listed first, as the server's router lists them. */
function documentOf(deletable: (kind: string) => boolean) {
  const paths = Object.assign({}, ...Object.keys(KINDS).map((k) => collection(k, deletable(k))));
  return { openapi: "3.0.0", info: { title: "notes", version: "1" }, paths };
}

/** Items by kind; `onDelete` says what deleting an item still in use does. */
function standIn(onDelete: "cascade" | "refuse") {
  const items = new Map(
    Object.keys(KINDS).map((k) => [k, new Map<number, Record<string, unknown>>()]),
  );
  let next = 1;
  const users = (kind: string, id: number) =>
    Object.entries(KINDS).filter(([, p]) => p === kind).flatMap(([child]) =>
      [...items.get(child)!.values()].filter((i) => i[kind] === id).map((i) =>
        [child, i.id as number] as const
      )
    );
  const remove = (kind: string, id: number): void => {
    for (const [child, cid] of users(kind, id)) remove(child, cid);
    items.get(kind)!.delete(id);
  };
  return serveStandIn(async (req) => {
    const parts = new URL(req.url).pathname.split("/");
    // `/notes/{id}/comments`: a comment made under its note's path.
    const under = parts.length === 4 ? { [parts[1].slice(0, -1)]: Number(parts[2]) } : {};
    const [plural, id] = parts.length === 4 ? [parts[3]] : parts.slice(1);
    const kind = plural?.slice(0, -1);
    const all = items.get(kind);
    if (!all) return new Response(null, { status: 404 });
    if (req.method === "POST") {
      const body = { ...await req.json(), ...under };
      const parent = KINDS[kind];
      if (parent && !items.get(parent)!.has(body[parent])) {
        return Response.json({ [parent]: "no such" }, { status: 400 });
      }
      const item = { ...body, id: next++ };
      all.set(item.id, item);
      return Response.json(item, { status: 201 });
    }
    if (id === undefined) return Response.json([...all.values()]);
    const item = all.get(Number(id));
    if (!item) return Response.json({ detail: "Not found." }, { status: 404 });
    if (req.method !== "DELETE") return Response.json(item);
    if (onDelete === "refuse" && users(kind, item.id as number).length > 0) {
      return Response.json({ detail: "in use" }, { status: 409 });
    }
    remove(kind, item.id as number);
    return new Response(null, { status: 204 });
  });
}

async function passesTwice(document: unknown, onDelete: "cascade" | "refuse") {
  const { runs, flows } = await convertAndRunSuite(document, standIn(onDelete), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  return flows;
}

Deno.test("convert openapi: an item is deleted before what its create read (a cascading delete)", async () => {
  const flows = await passesTwice(documentOf(() => true), "cascade");
  const flow = flows.get("all.yaml")!;
  const deletes = [...flow.matchAll(/method: DELETE\n\s+url: ([^\n]+)/g)].map((m) => m[1]);
  assert.deepEqual(deletes.map((u) => /\/(\w+)s\//.exec(u)?.[1]), ["comment", "note", "folder"]);
});

Deno.test("convert openapi: an item is deleted before what its create read (in use is refused)", async () => {
  await passesTwice(documentOf(() => true), "refuse");
});

Deno.test("convert openapi: an item is deleted before what it was made from through creates with no delete", async () => {
  // No DELETE of notes: a comment is still made from a folder, through the note's create.
  await passesTwice(documentOf((kind) => kind !== "note"), "cascade");
});

Deno.test("convert openapi: an item made under its parent's path is deleted before the parent", async () => {
  // `DELETE /comments/{id}` and `DELETE /notes/{id}` have one depth; the notes come first.
  const document = documentOf(() => true);
  const { "/comments": _, "/comments/{id}": __, ...rest } = document.paths;
  await passesTwice({ ...document, paths: { ...rest, ...shallowComments() } }, "cascade");
});
