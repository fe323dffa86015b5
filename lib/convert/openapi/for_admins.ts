/**
 * Operations the document reserves for administrators. The run's account is
 * an ordinary one (the sign-up it makes, or the login the user gives), and a
 * server refuses it 403 on what only an administrator may do: a NestJS auth
 * API's `GET /auth/users` ("Get all users (Admin only)") lists
 * `403: Forbidden - Admin access required`, and its delete and role change
 * `403: Forbidden - Super Admin access required`; sent the sign-up's token,
 * each failed every run. The document says so in one of five ways, each
 * read here and none from a path's or a property's name:
 *
 * - a 403 answer whose description names an administrator (`admin`,
 *   `administrator`, `super admin`, `superuser`); a 403 saying anything else
 *   ("Not your note") is a refusal of someone else's item, which the run's
 *   own account may still be allowed;
 * - a 401 or a 5xx answer (servers that answer every error 500, an Express
 *   API's `500: You are not ADMIN! Access Restricted!`) whose description or
 *   documented example says an administrator is required: it names one and
 *   a restriction (`only`, `restricted`, `required`, `not admin`, …), so a
 *   `500: Failed to create admin` of an operation on administrators is not;
 * - the operation's requirement of a scheme lists a role or scope naming one
 *   (`security: [{bearer: [admin]}]`, `[admin:users]`: OpenAPI 3.1 lets a
 *   requirement of any scheme list roles);
 * - an `x-` member of the operation naming one by its key (`x-admin-only:
 *   true`) or, under a key of roles, permissions, scopes or access, by its
 *   value (`x-roles: [admin]`);
 * - the operation's own summary or description restricting the caller to
 *   one ("Toggle user active status (Admin only)", `admin_words.ts`).
 *
 * Only operations the login's token would be sent to are reserved (a token
 * the user gives is theirs to choose). Such a step sends `ADMIN_TOKEN`, an
 * administrator's token the user gives, where it would send the login's, and
 * runs only when it is set: skipped without it, the summary naming each and
 * the variable, never a failure of the run's account the server was right to
 * refuse.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { type YMap, ymap, type YNode } from "../yaml_out.ts";
import { adminWords } from "./admin_words.ts";
import { LOGIN_STEP, TOKEN_CAPTURE } from "./auth_login.ts";
import { deref } from "./examples.ts";
import { exampleValues } from "./exampled_token.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Shared } from "./shared.ts";
import { withToken } from "./token_refresh.ts";

/** The environment variable holding an administrator's token. */
export const ADMIN_TOKEN = "ADMIN_TOKEN";
/** What a step sends for it: empty when unset, so the step is skipped, not an error. */
const SENT = `\${ENV.${ADMIN_TOKEN}:-}`;
/** A word naming an administrator. */
const ADMIN = /(?:^|[^a-z])(?:super[\s_-]?)?admin(?:istrator)?s?(?![a-z])|\bsuper[\s_-]?users?\b/i;
/** Words saying a caller is refused for who they are (`only`, `Access Restricted`, `not ADMIN`). */
const RESTRICTS =
  /\bonly\b|restrict|requir|forbid|denied|not (?:an? )?(?:super[\s_-]?)?admin|access|permission|privilege/i;
/** An `x-` key whose value names who may call: roles, permissions, scopes, access. */
const WHO = /role|permission|scope|access|privilege|group|authori[sz]/i;

/**
 * What in the document reserves `op` for administrators, quoted for the summary; none when
 * nothing does (see the module doc).
 *
 * @example
 * ```ts
 * import { forAdmins } from "./for_admins.ts";
 * const op = (node: object) => ({ method: "GET", template: "/users", node }) as never;
 * const refused = { responses: { "403": { description: "Forbidden - Admin access required" } } };
 * if (forAdmins({}, op(refused)) !== `its 403 "Forbidden - Admin access required"`) throw new Error();
 * if (forAdmins({}, op({ security: [{ bearer: ["admin"] }] })) !== `its scope "admin"`) throw new Error();
 * if (forAdmins({}, op({ "x-roles": ["admin"] })) !== `its x-roles "admin"`) throw new Error();
 * if (forAdmins({}, op({ responses: { "403": { description: "Not your note" } } })) !== undefined) throw new Error();
 * const said = { "500": { content: { "application/json": { example: { message: "You are not ADMIN! Access Restricted!" } } } } };
 * if (forAdmins({}, op({ responses: said })) !== `its 500 "You are not ADMIN! Access Restricted!"`) throw new Error();
 * if (forAdmins({}, op({ responses: { "500": { description: "Failed to create admin" } } })) !== undefined) throw new Error();
 * ```
 */
export function forAdmins(doc: Node, op: OpenApiOperation): string | undefined {
  const responses = isNode(op.node.responses) ? op.node.responses : {};
  const refused = deref(doc, responses["403"]);
  const said = isNode(refused) && typeof refused.description === "string"
    ? refused.description.trim()
    : "";
  if (ADMIN.test(said)) return `its 403 "${said.replace(/\s+/g, " ")}"`;
  const refusal = refusalNaming(doc, responses);
  if (refusal !== undefined) return refusal;
  const security = Array.isArray(op.node.security) ? op.node.security : doc.security;
  const first = Array.isArray(security) && isNode(security[0]) ? security[0] : {};
  const scope = Object.values(first).flat().find((s) => typeof s === "string" && ADMIN.test(s));
  if (scope !== undefined) return `its scope "${scope}"`;
  return extension(op.node) ?? adminWords(op.node);
}

/**
 * A 401 or 5xx answer whose description or example text names an administrator and a
 * restriction, quoted; none when no answer does.
 */
function refusalNaming(doc: Node, responses: Node): string | undefined {
  for (const [status, node] of Object.entries(responses)) {
    if (status !== "401" && !/^5/.test(status)) continue;
    const response = deref(doc, node);
    if (!isNode(response)) continue;
    const content = isNode(response.content) ? Object.values(response.content) : [];
    const texts = [
      response.description,
      ...content.filter(isNode).flatMap((m) => exampleValues(doc, m)),
    ]
      .flatMap((v) => typeof v === "string" ? [v] : isNode(v) ? Object.values(v) : [])
      .filter((v): v is string => typeof v === "string");
    const said = texts.find((t) => ADMIN.test(t) && RESTRICTS.test(t));
    if (said !== undefined) return `its ${status} "${said.trim().replace(/\s+/g, " ")}"`;
  }
  return undefined;
}

/** An `x-` member naming an administrator: by its key, or by its value under a key of who may. */
function extension(node: Node): string | undefined {
  for (const [key, value] of Object.entries(node)) {
    if (!key.startsWith("x-")) continue;
    if (ADMIN.test(key.slice(2)) && value === true) return `its ${key}`;
    if (!WHO.test(key)) continue;
    const named = [value].flat().find((v) => typeof v === "string" && ADMIN.test(v));
    if (named !== undefined) return `its ${key} "${named}"`;
  }
  return undefined;
}

/**
 * The `auth:` block of an administrators' step: the login's `block` sending `ADMIN_TOKEN` where
 * it sends the login's token, its note, and the condition that it is set (added to `ifs`); none
 * for another step. Each such operation is kept in `shared.admins` for the summary.
 *
 * @example
 * ```ts
 * import { adminBlock } from "./for_admins.ts";
 * import { ymap } from "../yaml_out.ts";
 * const block = ymap([["bearer", ymap([["token", "${steps.\u2060login\u2060.capture.token}"]])]]);
 * const op = { method: "GET", template: "/users", node: { "x-admin-only": true } } as never;
 * const shared = { doc: {} } as never;
 * const got = adminBlock(shared, op, block, []);
 * if (!JSON.stringify(got?.block).includes("${ENV.ADMIN_TOKEN:-}")) throw new Error();
 * ```
 */
export function adminBlock(
  shared: Shared,
  op: OpenApiOperation,
  block: YMap,
  ifs: YNode[],
): { block: YMap; notes: string[] } | undefined {
  const why = forAdmins(shared.doc, op);
  if (why === undefined) return undefined;
  (shared.admins ??= new Map()).set(`${op.method} ${op.template}`, why);
  ifs.push(ymap([["value", SENT], ["truthy", true]]));
  const note = `only an administrator may call it (${why}): ${ADMIN_TOKEN}, skipped when unset`;
  const token = `\${steps.${LOGIN_STEP}.capture.${TOKEN_CAPTURE}}`;
  return { block: withToken(block, token, SENT) as YMap, notes: [note] };
}
