/**
 * The shape of an RPC-style OpenAPI document as Etherpad's is, shared by
 * the `convert openapi` tests of functions called by name: every function a
 * path of its own, served under `/api/1`.
 */

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
