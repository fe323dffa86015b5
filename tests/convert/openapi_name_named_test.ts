/**
 * `convert openapi` on an RPC-shaped document whose every argument is an
 * optional query parameter (Etherpad's way, tests/real/etherpad_openapi_test.ts):
 * the converter left every optional parameter out, so `setText` set no text
 * ("text is not a string"), `setHTML` no HTML. The function's own name is
 * the evidence there: `setText` names `text`, `setHTML` `html`; a parameter
 * no word of the function names (`getText`'s `rev`, `createPad`'s `text`)
 * is still left out, and a REST document's optional query parameters are
 * left out whatever its operation ids say.
 *
 * The stand-in answers as Etherpad does: HTTP 200 always, `{"code": 0}` for
 * success, `{"code": 1}` for a refused call; on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import {
  assertAccepted,
  dataAnswer,
  okAnswer,
  rpcDocument,
  rpcPath,
} from "./openapi_rpc_document.ts";

const answer = okAnswer({ code: { type: "integer", example: 0 } });

/** A function as GET and POST, every argument an optional text in the query. */
function rpc(name: string, params: string[], summary?: string) {
  return rpcPath(name, params, {
    tags: ["pad"],
    ...(summary ? { summary } : {}),
    responses: answer,
  });
}

const document = rpcDocument({
  ...rpc("createPad", ["padID", "text"]),
  ...rpc("getText", ["padID", "rev"]),
  ...rpc("setText", ["padID", "text"]),
  ...rpc("appendText", ["padID", "text"]),
  ...rpc("setHTML", ["padID", "html"]),
  // snake case, and a name of two words after its verb.
  ...rpc("set_chat_head", ["padID", "chatHead"]),
  // The summary names it, as PowerDNS's summary names a body's property.
  ...rpc("renamePad", ["padID", "newName"], "renames a pad: newName is its new name"),
  ...rpc("deletePad", ["padID"]),
});

/** Every call as `<name> <code> <query> <method>`. */
function startServer() {
  const pads = new Set<string>();
  const calls: string[] = [];
  const needs: Record<string, string> = {
    setText: "text",
    appendText: "text",
    setHTML: "html",
    set_chat_head: "chatHead",
    renamePad: "newName",
  };
  const stand = serveStandIn((req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const name = url.pathname.replace("/api/1/", "");
    const reply = (ok: boolean) => {
      calls.push(`${name} ${ok ? 0 : 1} ${q} ${req.method}`);
      return Response.json({ code: ok ? 0 : 1, message: ok ? "ok" : "refused", data: null });
    };
    const pad = q.get("padID") ?? "";
    if (name === "createPad") return reply(pad !== "" && !pads.has(pad) && !!pads.add(pad));
    if (name === "deletePad") return reply(pads.delete(pad));
    if (name === "getText") return reply(pads.has(pad));
    // Etherpad's "text is not a string": the argument the function's name names.
    if (name in needs) return reply(pads.has(pad) && q.has(needs[name]));
    return new Response(null, { status: 404 });
  });
  return { ...stand, calls };
}

Deno.test("convert openapi: an RPC function's optional query parameter its own name names is sent (setText's text, setHTML's html)", async () => {
  const server = startServer();
  const { runs, summary, flows } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr + summary);
  const log = server.calls.join("\n");
  assertAccepted(server.calls, ["setText", "appendText", "setHTML", "set_chat_head", "renamePad"]);
  // A parameter no word of the function names is still left out, and said so.
  assert.ok(server.calls.every((c) => !/\brev=/.test(c)), log);
  assert.ok(server.calls.filter((c) => c.startsWith("createPad")).every((c) => !/text=/.test(c)));
  const pad = flows.get("pad.yaml") ?? "";
  assert.match(pad, /optional, left out: query rev/);
  assert.match(pad, /optional, sent: query text \(the function's name, setText, names it\)/);
});

Deno.test("convert openapi: a REST document's optional query parameters stay out whatever its operation ids say", async () => {
  const doc = {
    openapi: "3.0.2",
    info: { title: "REST", version: "1" },
    paths: {
      "/pets": {
        get: {
          operationId: "listPetsByStatus",
          summary: "lists pets by status",
          parameters: [{ name: "status", in: "query", schema: { type: "string" } }],
          responses: { "200": { description: "ok" } },
        },
      },
      "/pets/{petId}": {
        get: {
          operationId: "getPet",
          parameters: [
            { name: "petId", in: "path", required: true, schema: { type: "string" } },
            { name: "pet", in: "query", schema: { type: "string" } },
          ],
          responses: { "200": { description: "ok" } },
        },
      },
    },
  };
  const queries: string[] = [];
  // The listing holds a pet: the read takes its id from the undescribed answer (undescribed_listing.ts).
  const server = serveStandIn((req) => {
    queries.push(new URL(req.url).search);
    return Response.json([{ id: "p1" }]);
  });
  const { flows } = await convertAndRunSuite(doc, server);
  assert.deepEqual(queries, ["", ""]);
  assert.match([...flows.values()].join("\n"), /optional, left out: query status/);
});

/** An answer whose `data` holds `props`. */
const holding = dataAnswer;

/** A chat message as the document's answers describe one. */
const message = {
  type: "object",
  properties: { text: { type: "string" }, userId: { type: "string" }, time: { type: "integer" } },
};

const chatDocument = rpcDocument({
  ...rpc("createPad", ["padID"]),
  // Listed before the append, as Etherpad lists them: it reads messages that must exist.
  "/getChatHistory": {
    get: {
      tags: ["pad"],
      parameters: ["padID", "start", "end"].map((name) => ({ name, in: "query" })),
      responses: holding({ messages: { type: "array", items: message } }),
    },
  },
  ...rpc("appendChatMessage", ["padID", "text", "time"], "appends a chat message"),
});

Deno.test("convert openapi: an RPC call sends what the document's answers say the thing its name names holds (appendChatMessage's text), and runs before the reads", async () => {
  const pads = new Map<string, string[]>();
  const calls: string[] = [];
  const server = serveStandIn((req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const name = url.pathname.replace("/api/1/", "");
    const reply = (ok: boolean, data: unknown = null) => {
      calls.push(`${name} ${ok ? 0 : 1} ${q} ${req.method}`);
      return Response.json({ code: ok ? 0 : 1, data });
    };
    const pad = q.get("padID") ?? "";
    if (name === "createPad") return reply(pad !== "" && !pads.has(pad) && !!pads.set(pad, []));
    const chat = pads.get(pad);
    // Etherpad's "text is not a string", and "start is higher than the current chatHead".
    if (name === "appendChatMessage") return reply(!!chat && q.has("text") && !!chat.push("x"));
    if (name === "getChatHistory") return reply(!!chat && chat.length > 0, { messages: [] });
    return new Response(null, { status: 404 });
  });
  const { runs, summary, flows } = await convertAndRunSuite(chatDocument, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr + summary);
  const log = calls.join("\n");
  for (const name of ["appendChatMessage GET", "appendChatMessage POST", "getChatHistory GET"]) {
    const [fn, method] = name.split(" ");
    assert.ok(calls.some((c) => c.startsWith(`${fn} 0 `) && c.endsWith(` ${method}`)), log);
  }
  // The history's own range stays out: nothing names it.
  assert.ok(calls.every((c) => !/\b(start|end)=/.test(c)), log);
  assert.match(
    flows.get("pad.yaml") ?? "",
    /optional, sent: query text \(a message holds text, as the document describes one/,
  );
});

Deno.test("convert openapi: an RPC function whose name ends in a preposition (…IfNotExistsFor) sends its first argument, the preposition's object", async () => {
  const doc = rpcDocument({
    ...rpc("createGroupIfNotExistsFor", ["groupMapper"]),
    ...rpc("createAuthorIfNotExistsFor", ["authorMapper", "name"]),
    ...rpc("listPadsOfAuthor", ["authorID"]),
  });
  const calls: string[] = [];
  const server = serveStandIn((req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const name = url.pathname.replace("/api/1/", "");
    // Etherpad's "groupMapper is not a string".
    const ok = name === "listPadsOfAuthor" ||
      q.has(name.startsWith("createGroup") ? "groupMapper" : "authorMapper");
    calls.push(`${name} ${ok ? 0 : 1} ${q} ${req.method}`);
    return Response.json({ code: ok ? 0 : 1, data: null });
  });
  const { runs, summary } = await convertAndRunSuite(doc, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr + summary);
  const log = calls.join("\n");
  assert.equal(calls.filter((c) => / 0 /.test(c)).length, 6, log);
  // Only the object: the author's name, and an id the name does not end on, stay out.
  assert.ok(calls.every((c) => !/\bname=|authorID=/.test(c)), log);
});
