/**
 * What a function of an RPC-shaped document does, by its own name. In a
 * document whose paths take no parameter and name functions
 * (`/api/1.2.15/createGroup`, each served by GET and POST, as Etherpad
 * serves its API), the method says nothing: every function has a POST, so
 * by the paths every POST was a create and `deleteGroup` ran before the
 * calls reading the group. There the name is the only evidence: a last
 * path segment (or `operationId`) that starts with a verb followed by its
 * noun (`createGroup`, `delete_pad`, `remove-author`) creates or deletes.
 * A gRPC gateway spells the noun as a segment and the verb as the last
 * (etcd's `/v3/auth/role/add`, `/role/delete`, `/lease/grant`, `/lease/revoke`):
 * a last segment that is a verb alone, after a noun's, says the same.
 * A segment every path starts with is the API's base (`/api`, `/v3`), no
 * noun: a verb after it names no function of a noun (a course's Express
 * library API signs up at `POST /api/register` beside `POST /api/books`,
 * a REST document whose creates were not read while it passed for RPC).
 * A document with any path parameter is REST-shaped: the paths decide
 * there, never the words (`/user/createWithArray` beside `/user/{username}`).
 *
 * @module
 */

// `append` adds an item too (Etherpad's `appendChatMessage`): the reads of what it adds follow it.
const CREATES = /^(create|add|append|new|insert|register)(?=[A-Z0-9_-])/;
// A move takes the item away from its id, as a delete does: the reads of it come first.
const DELETES = /^(delete|remove|destroy|drop|purge|move)(?=[A-Z0-9_-])/;
// A verb alone as the last segment, after its noun's (`/role/add`); a grant makes what a revoke ends.
const CREATE_SEGMENT = /^(create|add|new|insert|register|grant)$/;
const DELETE_SEGMENT = /^(delete|remove|destroy|drop|purge|revoke)$/;

/**
 * Whether a document's templates are RPC-shaped: none takes a path
 * parameter, and some function's name starts with a create or delete verb.
 *
 * @example
 * ```ts
 * import { isRpcDocument } from "./rpc_verbs.ts";
 * if (!isRpcDocument(["/createGroup", "/listPads"])) throw new Error();
 * if (!isRpcDocument(["/v3/auth/role/add", "/v3/auth/role/grant", "/v3/auth/role/revoke"])) {
 *   throw new Error();
 * }
 * if (isRpcDocument(["/api/register", "/api/books", "/api/loans"])) throw new Error();
 * if (isRpcDocument(["/user/createWithArray", "/user/{username}"]) || isRpcDocument(["/pets"])) {
 *   throw new Error();
 * }
 * ```
 */
export function isRpcDocument(templates: string[]): boolean {
  const base = sharedBase(templates);
  return !templates.some((t) => t.includes("{")) &&
    templates.some((t) => rpcVerb(t, undefined, base) !== undefined);
}

/**
 * How many leading segments every one of two or more templates shares: the API's base. A shared
 * segment followed by verbs and no collection (a plural) is the noun those verbs act on, not the
 * base (a document of etcd's role calls only: `/v3/auth/role/add`, `/get`, `/revoke`); one
 * followed by collections too is the base (`/api/register` beside `/api/books`).
 */
function sharedBase(templates: string[]): number {
  if (templates.length < 2) return 0;
  const split = templates.map((t) => t.split("/").filter((s) => s !== ""));
  let n = 0;
  while (split.every((s) => n < s.length && s[n] === split[0][n])) n++;
  const verb = (s: string | undefined) =>
    s !== undefined && (CREATE_SEGMENT.test(s) || DELETE_SEGMENT.test(s));
  const plural = (s: string | undefined) => s !== undefined && /^[a-z_-]*[^s]s$/.test(s);
  while (n > 0 && split.some((s) => verb(s[n])) && !split.some((s) => plural(s[n]))) n--;
  return n;
}

/**
 * What an RPC function's name says it does: `create`, `delete`, or
 * undefined; its last path segment first, else its `operationId`. A verb
 * alone as the last segment counts after a noun, not after the first `base`
 * segments (the API's base, which every path shares).
 *
 * @example
 * ```ts
 * import { rpcVerb } from "./rpc_verbs.ts";
 * if (rpcVerb("/api/1/createPad") !== "create" || rpcVerb("/deleteGroup") !== "delete") throw new Error();
 * if (rpcVerb("/x", "remove_author") !== "delete" || rpcVerb("/getText") !== undefined) throw new Error();
 * if (rpcVerb("/appendChatMessage") !== "create" || rpcVerb("/movePad") !== "delete") throw new Error();
 * if (rpcVerb("/created") !== undefined || rpcVerb("/delete") !== undefined) throw new Error();
 * if (rpcVerb("/v3/auth/role/add") !== "create" || rpcVerb("/v3/lease/revoke") !== "delete") {
 *   throw new Error();
 * }
 * if (rpcVerb("/api/register", undefined, 1) !== undefined) throw new Error();
 * ```
 */
export function rpcVerb(
  template: string,
  operationId?: unknown,
  base = 0,
): "create" | "delete" | undefined {
  const segments = template.split("/").filter((s) => s !== "");
  const last = segments.at(-1) ?? "";
  const noun = segments.length - 2 >= base && segments.length > 1 &&
    !segments.at(-2)!.startsWith("{");
  if (noun && CREATE_SEGMENT.test(last)) return "create";
  if (noun && DELETE_SEGMENT.test(last)) return "delete";
  for (const name of [last, typeof operationId === "string" ? operationId : ""]) {
    if (CREATES.test(name)) return "create";
    if (DELETES.test(name)) return "delete";
  }
  return undefined;
}
