/**
 * `convert openapi` on a create whose undescribed answer names the new
 * item's identifier for its collection: an Express users API measured by
 * hand (2026) answers `POST /users` with `{message: "User added", userId}`
 * (its document says only "User created successfully"), and its item's
 * paths are `/users/{id}`. The suite searched the answer for `id` alone,
 * found none, and skipped the user's read, update and delete. The member
 * named for the item the create makes (`userId`, `user_id` for `/users`) is
 * that item's identifier, after a plain `id`: an answer holding both (a
 * post's `{id, userId}`, its author's) still gives its own `id`.
 *
 * The stand-ins run on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const idParam = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];

/** A create at `/{collection}` answering an undescribed 201, and its item's read and delete. */
function document(collection: string) {
  return {
    openapi: "3.0.0",
    info: { title: collection, version: "1" },
    paths: {
      [`/${collection}`]: {
        post: {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["name"],
                  properties: { name: { type: "string" } },
                },
              },
            },
          },
          responses: { "201": { description: "Created successfully" } },
        },
      },
      [`/${collection}/{id}`]: {
        get: { parameters: idParam, responses: { "200": { description: "One" } } },
        delete: { parameters: idParam, responses: { "200": { description: "Gone" } } },
      },
    },
  };
}

/** A store whose creates answer `answer(n)` for the n-th item; `reads` gets each id asked for. */
function store(answer: (n: number) => Record<string, unknown>, reads: string[]) {
  const made = new Set<string>();
  let count = 0;
  return serveStandIn((req) => {
    if (req.method === "POST") {
      made.add(String(++count));
      return Response.json(answer(count), { status: 201 });
    }
    const id = new URL(req.url).pathname.split("/").at(-1)!;
    reads.push(id);
    if (!made.has(id)) return Response.json({ error: "Not found" }, { status: 404 });
    if (req.method === "DELETE") made.delete(id);
    return Response.json({ id: Number(id) });
  });
}

for (const member of ["userId", "user_id"]) {
  Deno.test(`an undescribed create answering {message, ${member}} gives its item's id`, async () => {
    const reads: string[] = [];
    const answer = (n: number) => ({ message: "User added", [member]: n });
    const { runs, summary } = await convertAndRunSuite(document("users"), store(answer, reads), {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.deepEqual(reads, ["1", "1", "2", "2"]);
  });
}

Deno.test("an answer with its own id and another item's keeps its own", async () => {
  const reads: string[] = [];
  // The post's author is user 7; the post made is n.
  const answer = (n: number) => ({ post: { userId: 7, id: n } });
  const { runs: [run], summary } = await convertAndRunSuite(
    document("posts"),
    store(answer, reads),
  );
  assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.deepEqual(reads, ["1", "1"]);
});
