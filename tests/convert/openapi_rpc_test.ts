/**
 * `convert openapi` on an RPC-shaped document (every function `GET` and
 * `POST /api/1/<verbNoun>`, no path parameter, every argument an optional
 * query parameter), as Etherpad serves it (tests/real/etherpad_openapi_test.ts).
 * Two classes of defect:
 *
 * - **Order**: every function is served by GET and POST, so each POST was
 *   taken for a create and run first: `deleteGroup` before the `listPads`
 *   that reads the group. In such a document a function's own name is the
 *   only evidence of what it does: `create…` first, `delete…` last.
 * - **A client-named query id**: `createPad?padID=…` makes the pad the client
 *   names, and no answer hands a `padID` out, so every call reading a pad left
 *   it out. The run now names it (`padID-<random>`), sends it to the create and
 *   to every call reading it, the create copied into other tags' flows.
 *
 * The stand-in answers as Etherpad does: HTTP 200 always, `{"code": 0}` for
 * success, `{"code": 1}` for a refused call; on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { operationsOf, stepOrder } from "../../lib/convert/openapi/operations.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { assertAccepted, okAnswer, rpcDocument, rpcPath } from "./openapi_rpc_document.ts";

const answer = (data: Record<string, unknown>) =>
  okAnswer({ code: { type: "integer", example: 0 }, data: { type: "object", properties: data } });
const text = { type: "string" };

/** A function as GET and POST, Etherpad's way: `<name>UsingGET`, `<name>UsingPOST`. */
function rpc(name: string, tag: string | undefined, params: string[], data = {}) {
  return rpcPath(name, params, { ...(tag ? { tags: [tag] } : {}), responses: answer(data) });
}

const document = rpcDocument({
  // Deletes first in the document, as Etherpad lists deleteGroup before listPads.
  ...rpc("createGroup", "group", [], { groupID: text }),
  ...rpc("deleteGroup", "group", ["groupID"]),
  ...rpc("listPads", "group", ["groupID"], { padIDs: { type: "array", items: text } }),
  ...rpc("createPad", "pad", ["padID", "text"]),
  ...rpc("deletePad", "pad", ["padID"]),
  ...rpc("getText", "pad", ["padID"], { text }),
  ...rpc("setText", "pad", ["padID", "text"]),
  // A POST-only function named a removal, in snake case, listed before the read it must follow.
  "/remove_author": {
    post: { tags: ["author"], parameters: [{ name: "authorID", in: "query" }] },
  },
  ...rpc("createAuthor", "author", [], { authorID: text }),
  ...rpc("getAuthorName", "author", ["authorID"], { name: text }),
  // Untagged, in a flow of its own: it needs a pad of its own.
  ...rpc("getRevisionsCount", undefined, ["padID"], { revisions: { type: "integer" } }),
});

/** Every call as `<name> <code>` in order, Etherpad's answers. */
function startServer() {
  const groups = new Set<string>();
  const pads = new Set<string>();
  const authors = new Set<string>();
  const calls: string[] = [];
  const stand = serveStandIn((req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const name = url.pathname.replace("/api/1/", "");
    const reply = (code: number, data: unknown = null) => {
      calls.push(`${name} ${code} ${q} ${req.method}`);
      return Response.json({ code, message: code === 0 ? "ok" : "refused", data });
    };
    const group = q.get("groupID") ?? "";
    const author = q.get("authorID") ?? "";
    if (name === "createAuthor") {
      const id = `a.${crypto.randomUUID().slice(0, 8)}`;
      authors.add(id);
      return reply(0, { authorID: id });
    }
    if (name === "getAuthorName") return reply(authors.has(author) ? 0 : 1, { name: "x" });
    if (name === "remove_author") return reply(authors.delete(author) ? 0 : 1);
    const pad = q.get("padID") ?? "";
    if (name === "createGroup") {
      const id = `g.${crypto.randomUUID().slice(0, 8)}`;
      groups.add(id);
      return reply(0, { groupID: id });
    }
    if (name === "listPads") return reply(groups.has(group) ? 0 : 1, { padIDs: [] });
    if (name === "deleteGroup") return reply(groups.delete(group) ? 0 : 1);
    if (name === "createPad") {
      if (pad === "" || pads.has(pad)) return reply(1);
      pads.add(pad);
      return reply(0);
    }
    if (name === "deletePad") return reply(pads.delete(pad) ? 0 : 1);
    if (["getText", "setText", "getRevisionsCount"].includes(name)) {
      return reply(pads.has(pad) ? 0 : 1, { text: "x", revisions: 0 });
    }
    return new Response(null, { status: 404 });
  });
  return { ...stand, calls };
}

Deno.test("convert openapi: an RPC document's functions run create first and delete last, by their own names", async () => {
  const server = startServer();
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code === 0 || runs[0].code === 1, true, runs[0].stderr + summary);
  const at = (prefix: string) =>
    server.calls.flatMap((c, i) => c.startsWith(`${prefix} `) ? [i] : []);
  assert.ok(at("deleteGroup").length > 0, server.calls.join("\n"));
  // Every read of the group comes before its delete, and the first delete is accepted.
  assert.ok(Math.max(...at("listPads")) < Math.min(...at("deleteGroup")), server.calls.join("\n"));
  // Each of deleteGroup's GET and POST twins removes a group of its own: the one its method's
  // createGroup answered, the twins answering alike. One group, removed twice, failed the second.
  for (const method of ["GET", "POST"]) {
    assert.ok(
      server.calls.some((c) => c.startsWith("deleteGroup 0") && c.endsWith(` ${method}`)),
      `${method} deleteGroup never accepted:\n${server.calls.join("\n")}`,
    );
  }
  assert.ok(Math.max(...at("getText")) < Math.min(...at("deletePad")), server.calls.join("\n"));
  // By a snake-case name too, with no GET twin: the author is read before it is removed.
  assert.ok(server.calls.some((c) => c.startsWith("remove_author 0")), server.calls.join("\n"));
  assert.ok(server.calls.some((c) => c.startsWith("getAuthorName 0")), server.calls.join("\n"));
});

Deno.test("convert openapi: a REST document keeps its order by paths, whatever its path words say", () => {
  const doc = {
    paths: {
      "/user/createWithArray": { post: {} },
      "/user/{username}": { get: {}, delete: {} },
      "/user": { post: {} },
      "/deleteAll": { post: {} },
    },
  };
  const order = stepOrder(operationsOf(doc)).map((o) => `${o.method} ${o.template}`);
  // As before RPC documents were read by their words: no path word made a create or a delete.
  assert.deepEqual(order, [
    "POST /user",
    "GET /user/{username}",
    "DELETE /user/{username}",
    "POST /user/createWithArray",
    "POST /deleteAll",
  ]);
});

Deno.test("convert openapi: a query id the client names at an RPC create is the run's own, sent to the create and to every call reading it", async () => {
  const server = startServer();
  const { runs, summary, flows } = await convertAndRunSuite(document, server);
  assert.ok(runs[0].code === 0 || runs[0].code === 1, runs[0].stderr + summary);
  // Each function that reads a pad was accepted at least once, in its tag's flow and untagged.
  for (const name of ["createPad", "getText", "setText", "deletePad", "getRevisionsCount"]) {
    assert.ok(
      server.calls.some((c) => c.startsWith(`${name} 0 `)),
      `${name} never accepted:\n${server.calls.join("\n")}`,
    );
  }
  // Each of the GET and POST twins makes a pad of its own, which its own method's delete removes:
  // the second of the twins no longer names a pad that exists, or one already gone.
  assertAccepted(server.calls, ["createPad", "deletePad"]);
  // The run's own name, made anew each run: no literal pad id in a flow.
  const all = [...flows.values()].join("\n");
  assert.match(all, /padID: padID-\$\{RANDOM\.HEX_8\}/);
  assert.ok(server.calls.every((c) => !/padID=(string|&|$)/.test(c)), server.calls.join("\n"));
  // A text nothing names is still left out: createPad's (setText's own name names its text,
  // tests/convert/openapi_name_named_test.ts).
  const creates = server.calls.filter((c) => c.startsWith("createPad "));
  assert.ok(creates.every((c) => !/text=/.test(c)), server.calls.join("\n"));
});
