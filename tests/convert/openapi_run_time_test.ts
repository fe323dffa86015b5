/**
 * `convert openapi`: a query parameter the document calls a time is the
 * time of the run (`${NOW.…}`), not the placeholder `string` nor the
 * conversion's moment. Etherpad's `createSession` takes `validUntil`, typed
 * `string`, which its summary calls "an unix timestamp in seconds", and a
 * session must end in the future: `validUntil=string` was refused, and the
 * calls reading the session were skipped (tests/real/etherpad_openapi_test.ts).
 * A REST document's required times too: a unix time in milliseconds, and a
 * `date-time` that expires; a `date-time` nothing says runs out keeps the
 * document's format sample.
 *
 * The stand-ins check each time against their own clock, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import {
  assertAccepted,
  dataAnswer,
  rpcDocument as documentOf,
  rpcPath,
} from "./openapi_rpc_document.ts";

const ok = { "200": { description: "ok (code 0)" } };
const text = { type: "string" };
const data = dataAnswer;

/** A function as GET and POST, every argument an optional text in the query. */
function rpc(name: string, params: string[], responses: unknown = ok, summary?: string) {
  return rpcPath(name, params, { tags: ["session"], ...(summary ? { summary } : {}), responses });
}

const rpcDocument = documentOf({
  ...rpc("createGroup", [], data({ groupID: text })),
  ...rpc("createAuthor", [], data({ authorID: text })),
  ...rpc(
    "createSession",
    ["groupID", "authorID", "validUntil"],
    data({ sessionID: text }),
    "creates a new session. validUntil is an unix timestamp in seconds",
  ),
  ...rpc("getSessionInfo", ["sessionID"]),
  ...rpc("deleteSession", ["sessionID"]),
});

const nowSeconds = () => Date.now() / 1000;

function rpcServer() {
  const calls: string[] = [];
  const sessions = new Set<string>();
  const stand = serveStandIn((req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const name = url.pathname.replace("/api/1/", "");
    const reply = (good: boolean, data: unknown = null) => {
      calls.push(`${name} ${good ? 0 : 1} ${q} ${req.method}`);
      return Response.json({ code: good ? 0 : 1, data });
    };
    const id = `x.${crypto.randomUUID().slice(0, 8)}`;
    if (name === "createGroup") return reply(true, { groupID: id });
    if (name === "createAuthor") return reply(true, { authorID: id });
    if (name === "createSession") {
      // Etherpad's checks: a number, and not in the past.
      const until = Number(q.get("validUntil"));
      const good = Number.isFinite(until) && until > nowSeconds() && until < nowSeconds() + 86_400;
      if (good) sessions.add(id);
      return reply(good && q.has("groupID") && q.has("authorID"), { sessionID: id });
    }
    if (name === "getSessionInfo") return reply(sessions.has(q.get("sessionID") ?? ""));
    if (name === "deleteSession") return reply(sessions.delete(q.get("sessionID") ?? ""));
    return new Response(null, { status: 404 });
  });
  return { ...stand, calls };
}

Deno.test("convert openapi: a parameter the summary calls a unix timestamp is the run's time, an hour on when it is a validUntil", async () => {
  const server = rpcServer();
  const { runs, summary, flows } = await convertAndRunSuite(rpcDocument, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr + summary);
  assertAccepted(server.calls, ["createSession", "getSessionInfo", "deleteSession"]);
  // Read from the clock at each run, never a literal time.
  const flow = [...flows.values()].join("\n");
  assert.match(flow, /validUntil: \$\{NOW\.UNIX\+1h\}/);
  assert.match(flow, /query validUntil: \$\{NOW\.UNIX\+1h\}, the time of the run/);
});

Deno.test("convert openapi: a REST document's required unix time in milliseconds and expiring date-time are the run's, another date-time its sample", async () => {
  const doc = {
    openapi: "3.0.2",
    info: { title: "REST", version: "1" },
    paths: {
      "/tokens": {
        post: {
          parameters: [
            {
              name: "expires",
              in: "query",
              required: true,
              description: "When the token expires, as a Unix timestamp in milliseconds",
              schema: { type: "integer", format: "int64" },
            },
            {
              name: "notAfter",
              in: "query",
              required: true,
              description: "The token is valid until then",
              schema: { type: "string", format: "date-time" },
            },
            {
              name: "issued",
              in: "query",
              required: true,
              schema: { type: "string", format: "date-time" },
            },
          ],
          responses: { "201": { description: "made" } },
        },
      },
    },
  };
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const q = new URL(req.url).searchParams;
    seen.push(q.toString());
    const expires = Number(q.get("expires"));
    const notAfter = Date.parse(q.get("notAfter") ?? "");
    const future = (ms: number) => ms > Date.now() && ms < Date.now() + 86_400_000;
    const good = future(expires) && future(notAfter) && q.get("issued") === "2024-01-01T00:00:00Z";
    return new Response(null, { status: good ? 201 : 400 });
  });
  const { runs, summary } = await convertAndRunSuite(doc, server);
  assert.equal(runs[0].code, 0, `${seen.join("\n")}\n${runs[0].stdout}${runs[0].stderr}${summary}`);
  assert.equal(seen.length, 1);
});
