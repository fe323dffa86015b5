/**
 * A sign-in whose token is read by name from its answer, because the document
 * does not say where it is: its answer is undescribed, or only a documented
 * example shows the token (exampled_token.ts). Such a login's token is
 * captured as the first JSON member named like a token anywhere in the body
 * (token_source.ts).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { examplesAToken } from "./exampled_token.ts";
import { describesNoMember, wrapsOpaqueMember } from "./opaque_answer.ts";
import { echoesRequest } from "./echoed_answer.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * Whether `op`'s token is read by name: it says it signs in and its answer is undescribed, or
 * only a documented example of its answer shows the token.
 *
 * @example
 * ```ts
 * import { readByName } from "./token_by_name.ts";
 * const op = { template: "/user/login", name: "login", node: { responses: { "200": { description: "OK" } } } };
 * if (!readByName({}, op as never)) throw new Error();
 * ```
 */
export function readByName(doc: Node, op: OpenApiOperation): boolean {
  return undescribedSignIn(doc, op) || examplesAToken(doc, op);
}

/**
 * Whether `op` says it signs in (`/user/login`, "Authenticate a user", `/api/token/`) and
 * its document describes no answer body (flasgger's docstrings: `200: User successfully logged
 * in`; a schema naming no member, `opaque_answer.ts`; one naming only what the request sends,
 * `echoed_answer.ts`; an envelope whose payload names no member, `wrapsOpaqueMember`): nothing says where its token is, and nothing says it has none, so the
 * token is looked for by name in the body.
 */
function undescribedSignIn(doc: Node, op: OpenApiOperation): boolean {
  const unsaid = describesNoMember(doc, op) || echoesRequest(doc, op) ||
    (wrapsOpaqueMember(doc, op) && !declaresCookie(doc));
  if (!unsaid) return false;
  const summary = typeof op.node.summary === "string" ? op.node.summary : "";
  // `token`: simplejwt's documented URL for its login is `api/token/` (`token_create`), as
  // OAuth 2.0's token endpoint is `/token`; a POST taking a password there signs in.
  return /log_?in|sign_?in|authenticat|token/i.test(`${op.template} ${op.name} ${summary}`);
}

/**
 * Whether `doc` declares a cookie apiKey scheme: the session its login sets (tududi's `{user}`
 * answer beside `connect.sid`), so an open member of that login's answer is no sign of a token.
 */
function declaresCookie(doc: Node): boolean {
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  return Object.values(schemes).some((s) => isNode(s) && s.type === "apiKey" && s.in === "cookie");
}
