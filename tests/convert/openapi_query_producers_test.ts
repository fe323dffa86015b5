/**
 * `convert openapi` on an RPC-shaped API (`POST /createGroup`, `GET
 * /listPads?groupID=…`), as Etherpad serves it (tests/real/etherpad_openapi_test.ts):
 * every argument an optional query parameter, each id handed out by the
 * answer of the call that makes it (`createGroup` → `data.groupID`). The
 * converter left every optional parameter out, so each call named nothing
 * and was refused (Etherpad: "groupID does not exist"). A query parameter
 * whose name a create's answer holds is now that answer's capture, in the
 * flow of its tag, the create copied there from another tag when needed
 * (`createSession` reads a group and an author); an optional parameter no
 * answer holds (`limit`) is still left out, and so is one that is no id
 * (`createPad?text=` is not read from `getText`'s `data.text`). The id is
 * read from the create of the thing it names (`authorID` from
 * `createAuthor`), not from another create's answer that refers to one
 * (a comment's `authorID`; Discord's entitlement's `user_id`).
 *
 * The stand-in below refuses an unknown or missing id with 400, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { rpcDocument } from "./openapi_rpc_document.ts";

const answer = (data: Record<string, unknown>) => ({
  "200": {
    description: "ok",
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: {
            code: { type: "integer", example: 0 },
            data: { type: "object", properties: data },
          },
        },
      },
    },
  },
});
const text = { type: "string" };
const param = (name: string) => ({ name, in: "query", schema: { type: "string" } });

/** One operation of the RPC document: its tag, its query parameters, what its answer holds. */
function rpc(tag: string, params: string[], data: Record<string, unknown> = {}, method = "post") {
  return {
    [method]: {
      operationId: "op",
      tags: [tag],
      parameters: params.map(param),
      responses: answer(data),
    },
  };
}

const document = rpcDocument({
  "/createGroup": rpc("group", [], { groupID: text }),
  "/listPads": rpc(
    "group",
    ["groupID", "limit"],
    { padIDs: { type: "array", items: text } },
    "get",
  ),
  "/deleteGroup": rpc("group", ["groupID"]),
  // A comment's answer names its author: an id it refers to, not one it made (it comes first).
  "/createComment": rpc("author", [], { commentID: text, authorID: text }),
  "/createAuthor": rpc("author", ["name"], { authorID: text }),
  "/listPadsOfAuthor": rpc("author", ["authorID"], {}, "get"),
  "/createSession": rpc("session", ["groupID", "authorID", "validUntil"], { sessionID: text }),
  "/getSessionInfo": rpc("session", ["sessionID"], {}, "get"),
  // A text another call answers is data, not a handle: createPad's text is no getText's.
  "/getText": rpc("pad", ["padID"], { text }),
  "/createPad": rpc("pad", ["padID", "text"]),
});

/** The ids it handed out, and every request's query; an unknown id is refused (400). */
function startServer() {
  const made = new Set<string>();
  const seen: string[] = [];
  let next = 1;
  const make = (kind: string) => {
    const id = `${kind}.${next++}${crypto.randomUUID().slice(0, 4)}`;
    made.add(id);
    return id;
  };
  const known = (value: string | null) => value !== null && made.has(value);
  const stand = serveStandIn((req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const name = url.pathname.replace("/api/1/", "");
    seen.push(`${name}?${q}`);
    const ok = (data: unknown = null) => Response.json({ code: 0, message: "ok", data });
    const refuse = () => Response.json({ code: 1, message: "id does not exist" }, { status: 400 });
    if (name === "createGroup") return ok({ groupID: make("g") });
    if (name === "createAuthor") return ok({ authorID: make("a") });
    if (name === "createComment") return ok({ commentID: make("c"), authorID: "a.gone" });
    if (name === "listPadsOfAuthor") return known(q.get("authorID")) ? ok({}) : refuse();
    if (name === "listPads" || name === "deleteGroup") {
      return known(q.get("groupID")) ? ok({ padIDs: [] }) : refuse();
    }
    if (name === "createSession") {
      return known(q.get("groupID")) && known(q.get("authorID"))
        ? ok({ sessionID: make("s") })
        : refuse();
    }
    if (name === "getSessionInfo") return known(q.get("sessionID")) ? ok({}) : refuse();
    if (name === "getText") return ok({ text: "hello" });
    if (name === "createPad") return ok({});
    return new Response(null, { status: 404 });
  });
  return { ...stand, seen };
}

Deno.test("convert openapi: an optional query parameter a create's answer holds is read from that create, across tags", async () => {
  const server = startServer();
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr + summary);
  const calls = (name: string) => server.seen.filter((s) => s.startsWith(`${name}?`));
  const read = ["listPads", "deleteGroup", "createSession", "getSessionInfo", "listPadsOfAuthor"];
  for (const name of [...read, "createPad"]) {
    assert.ok(calls(name).length > 0, `${name} was not called: ${server.seen.join(" ")}`);
  }
  assert.ok(calls("createSession").every((s) => /groupID=g\./.test(s) && /authorID=a\./.test(s)));
  // Nothing hands out a limit, a name or a validUntil, and a text is no id: all left out.
  const leftOut = /limit=|name=|validUntil=|text=/;
  assert.ok(server.seen.every((s) => !leftOut.test(s)), server.seen.join(" "));
});
