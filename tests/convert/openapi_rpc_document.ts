/**
 * The shape of an RPC-style OpenAPI document as Etherpad's is, shared by
 * the `convert openapi` tests of functions called by name: every function a
 * path of its own, served under `/api/1`, answering 200 "ok (code 0)".
 */
import assert from "node:assert/strict";

/**
 * A function as GET and POST, Etherpad's way (`<name>UsingGET`,
 * `<name>UsingPOST`), every argument an optional text in the query;
 * `fields` (tags, a summary, the responses) go into both operations.
 */
export function rpcPath(
  name: string,
  params: string[],
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const op = (method: string) => ({
    operationId: `${name}Using${method}`,
    ...fields,
    parameters: params.map((p) => ({ name: p, in: "query", schema: { type: "string" } })),
  });
  return { [`/${name}`]: { get: op("GET"), post: op("POST") } };
}

/** An OpenAPI 3.0 document titled RPC of `paths`, its server at `/api/1`. */
export function rpcDocument(paths: Record<string, unknown>) {
  return {
    openapi: "3.0.2",
    info: { title: "RPC", version: "1" },
    servers: [{ url: "/api/1" }],
    paths,
  };
}

/** An answer "ok (code 0)" whose JSON is an object of `properties`. */
export function okAnswer(properties: Record<string, unknown>): Record<string, unknown> {
  return {
    "200": {
      description: "ok (code 0)",
      content: { "application/json": { schema: { type: "object", properties } } },
    },
  };
}

/** An answer "ok (code 0)" whose `data` is an object of `props`. */
export function dataAnswer(props: Record<string, unknown>): Record<string, unknown> {
  return okAnswer({ data: { type: "object", properties: props } });
}

/**
 * Fails unless each function of `names` was accepted (code 0) under GET and
 * under POST, as the stand-in's `calls` (`<name> <code> <query> <method>`) say.
 */
export function assertAccepted(calls: string[], names: string[]): void {
  const log = calls.join("\n");
  for (const name of names) {
    for (const method of ["GET", "POST"]) {
      assert.ok(
        calls.some((c) => c.startsWith(`${name} 0 `) && c.endsWith(` ${method}`)),
        `${method} ${name} never accepted:\n${log}`,
      );
    }
  }
}
