/**
 * `convert openapi` on an RPC-shaped document (every argument an optional
 * query parameter, Etherpad's way: tests/real/etherpad_openapi_test.ts):
 * `copyPad`, `movePad` and `copyPadWithoutHistory` take `sourceID` and
 * `destinationID`, ids no answer holds and no create names, so both were
 * left out and every call refused ("padID does not exist"). The function's
 * name names what they are ids of, a pad, whose id the run names at
 * `createPad`: the first is the run's pad, and each later one a new pad of
 * the run's own, a name per call (a copy onto a pad that exists is
 * refused). A move takes the pad away from its id as a delete does: it
 * runs last, after the calls reading the pad. A function whose name ends
 * in the id (`getPadID`) answers it: its `roID` is no pad's; it is read
 * from the answer that holds an id it abbreviates (`getReadOnlyID`'s
 * `readOnlyID`: read, only), that call copied into its flow.
 *
 * The stand-in answers as Etherpad does: HTTP 200 always, `{"code": 0}` for
 * success, `{"code": 1}` for a refused call; on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { dataAnswer, rpcDocument, rpcPath } from "./openapi_rpc_document.ts";

const ok = { "200": { description: "ok (code 0)" } };
const readOnly = dataAnswer({ readOnlyID: { type: "string" } });

/** A function as GET and POST, every argument an optional text in the query. */
function rpc(name: string, params: string[], tag?: string, responses: unknown = ok) {
  return rpcPath(name, params, { ...(tag ? { tags: [tag] } : {}), responses });
}

const document = rpcDocument({
  ...rpc("createPad", ["padID"], "pad"),
  ...rpc("getText", ["padID"], "pad"),
  ...rpc("getReadOnlyID", ["padID"], "pad", readOnly),
  // Untagged, as Etherpad's are: a flow of their own, with a copy of the create. The move is
  // listed before the reads, as Etherpad lists it.
  ...rpc("movePad", ["sourceID", "destinationID", "force"]),
  ...rpc("copyPad", ["sourceID", "destinationID", "force"]),
  ...rpc("getPadID", ["roID"]),
  ...rpc("getRevisionsCount", ["padID"]),
  ...rpc("copyPadWithoutHistory", ["sourceID", "destinationID", "force"]),
  ...rpc("deletePad", ["padID"], "pad"),
});

/** Every call as `<name> <code> <query> <method>`. */
function startServer() {
  const pads = new Set<string>();
  const calls: string[] = [];
  const stand = serveStandIn((req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const name = url.pathname.replace("/api/1/", "");
    const reply = (good: boolean) => {
      calls.push(`${name} ${good ? 0 : 1} ${q} ${req.method}`);
      return Response.json({ code: good ? 0 : 1, data: null });
    };
    const pad = q.get("padID") ?? "";
    const [source, destination] = [q.get("sourceID") ?? "", q.get("destinationID") ?? ""];
    const copy = pads.has(source) && destination !== "" && !pads.has(destination);
    if (name === "createPad") return reply(pad !== "" && !pads.has(pad) && !!pads.add(pad));
    if (name === "deletePad") return reply(pads.delete(pad));
    if (name === "getText" || name === "getRevisionsCount") return reply(pads.has(pad));
    if (name.startsWith("copyPad")) return reply(copy && !!pads.add(destination));
    if (name === "movePad") return reply(copy && !!pads.add(destination) && pads.delete(source));
    if (name === "getReadOnlyID") {
      calls.push(`${name} ${pads.has(pad) ? 0 : 1} ${q} ${req.method}`);
      return Response.json({ code: pads.has(pad) ? 0 : 1, data: { readOnlyID: `r.${pad}` } });
    }
    // The read-only id of a pad that exists.
    if (name === "getPadID") return reply(pads.has((q.get("roID") ?? "").replace(/^r\./, "")));
    return new Response(null, { status: 404 });
  });
  return { ...stand, calls };
}

Deno.test("convert openapi: an RPC call's ids its function's noun names are the run's item, then new ones of its own; a move runs last", async () => {
  const server = startServer();
  const { runs, summary, flows } = await convertAndRunSuite(document, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr + summary);
  const log = server.calls.join("\n");
  // Twice on one server: each run's pads and destinations are new.
  const names = ["copyPad", "movePad", "copyPadWithoutHistory", "getRevisionsCount", "getPadID"];
  for (const name of names) {
    for (const method of ["GET", "POST"]) {
      const accepted = server.calls.filter((c) =>
        c.startsWith(`${name} 0 `) && c.endsWith(` ${method}`)
      );
      assert.ok(accepted.length >= 2, `${method} ${name} not accepted in both runs:\n${log}`);
    }
  }
  // No refusal at all, and the switch nothing names stays out.
  assert.ok(server.calls.every((c) => !/ 1 /.test(c)), log);
  assert.ok(server.calls.every((c) => !/\bforce=/.test(c)), log);
  const flow = [...flows.values()].join("\n");
  assert.match(flow, /sourceID: \$\{vars\.padID\}/);
  assert.match(flow, /destinationID: \$\{vars\.destinationID_2\}/);
  assert.match(flow, /roID: \$\{steps\.get_read_only_id_using_get\.capture\.roID\}/);
});
