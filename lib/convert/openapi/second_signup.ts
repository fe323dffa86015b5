/**
 * A second sign-up, taken only when the server refuses the first: a
 * document can describe two creates taking the login's credentials (a
 * `POST /api/auth/register` and a `POST /api/users`, both `{username,
 * password}`, neither secured), and the one read as the sign-up
 * (login.ts's `registerFor`, the first) may be one the server does not
 * serve: `swagger-jsdoc` documents what the route files' comments say,
 * mounted or not, and a course project's app that never mounts its
 * register route answers it 404. Signed up by it alone, the login was
 * refused (no such account) and every step its token serves failed. The
 * other create is then a step of its own after the first, with the same
 * per-run credentials, run only when the first was not accepted (its status
 * 300 or more, captured from the first's answer); where the first signs up,
 * the second is skipped, never a second account of the same name. Its own
 * flow holds no first (the order is kept where both are, not pulled in:
 * prerequisites.ts), so there it runs, with that flow's own account: an
 * operation of the document never sent counts against the suite. Where its
 * own flow holds the first too, pulled in for the login its tag's other
 * operations need (a NestJS cats API's `POST /api/v1/users`, open, beside
 * `/auth/register` and a secured `GET /auth/profile`), the condition left it
 * unsent in every flow: there it is sent whatever the first did, as an
 * account of its own (`apartVars`: the run's account is the first's, and a
 * server keeping emails unique refuses one twice), in vars of its own that
 * a listing finds the item it made by.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { ymap, type YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import type { Login } from "./login.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";

/**
 * Adds to the login's second sign-up the condition that the first was refused (see the module doc).
 *
 * @example
 * ```ts
 * import { fillSecondSignup } from "./second_signup.ts";
 * import { type OpenApiOperation, operationsOf } from "./operations.ts";
 * const [register, users] = [{ template: "/register" }, { template: "/users" }] as OpenApiOperation[];
 * const login = { op: { template: "/login" }, register, alternate: users, schemes: new Map() };
 * const ifs: unknown[] = [];
 * const capture = (step: string, key: string) => `\${steps.${step}.capture.${key}}`;
 * const fill = { op: users, body: { fields: [] }, guards: [], ifs, stepOf: new Map([[register, "sign_up"]]), capture };
 * fillSecondSignup({ inferred: { login } as never }, fill as never);
 * if (!JSON.stringify(ifs).includes("${steps.sign_up.capture.signup_status}")) throw new Error();
 * ```
 */
export function fillSecondSignup(
  shared: { inferred: { login?: Login }; doc?: Node; flow?: FlowOps },
  fill: BodyFill,
) {
  const { login } = shared.inferred;
  if (!login?.register || fill.op !== login.alternate || !fill.ifs) return;
  if (sentApart(shared, fill.op)) return;
  const first = fill.stepOf.get(login.register);
  if (first === undefined) return;
  const status = fill.capture(first, "signup_status", "$.status");
  fill.ifs.push(ymap([["value", status], ["gte", 300]]));
}

/** The operations of the flow being written: its tag's own, and all (with those pulled in). */
export interface FlowOps {
  own: ReadonlySet<OpenApiOperation>;
  all: ReadonlySet<OpenApiOperation>;
}

/**
 * Whether `op` is the login's second sign-up in its own flow beside the first: sent whatever the
 * first did, as an account of its own (see the module doc).
 *
 * @example
 * ```ts
 * import { sentApart } from "./second_signup.ts";
 * const [register, users] = [{ template: "/register", node: {} }, { template: "/users", node: {} }] as never[];
 * const inferred = { login: { register, alternate: users } } as never;
 * const flow = { own: new Set([users]), all: new Set([register, users]) };
 * const doc = { paths: { "/cats": { get: { security: [{ bearer: [] }] } } } };
 * if (!sentApart({ inferred, doc, flow }, users) || sentApart({ inferred, flow }, users)) throw new Error();
 * if (sentApart({ inferred, doc, flow: { ...flow, own: new Set() } }, users)) throw new Error();
 * ```
 */
export function sentApart(
  shared: { inferred: { login?: Login }; doc?: Node; flow?: FlowOps },
  op: OpenApiOperation,
): boolean {
  const { login } = shared.inferred;
  if (!login?.register || op !== login.alternate || !shared.flow) return false;
  // It is sent before the login (as a sign-up's second): one that inherits a requirement keeps its
  // condition (a server holding it to it refuses it 401), as does one of a document that states
  // no requirement on any operation (its token is sent to every call); one the document leaves
  // open while it requires a scheme elsewhere (`@ApiBearerAuth()` on other controllers) goes.
  const security = Array.isArray(op.node.security) ? op.node.security : shared.doc?.security;
  const options = Array.isArray(security) ? security.filter(isNode) : [];
  const open = options.length === 0 || options.some((o) => Object.keys(o).length === 0);
  const stated = (o: OpenApiOperation) =>
    Array.isArray(o.node.security) &&
    o.node.security.some((r) => isNode(r) && Object.keys(r).length > 0);
  const schemes = shared.doc !== undefined && operationsOf(shared.doc).some(stated);
  return open && schemes && shared.flow.own.has(op) && shared.flow.all.has(login.register);
}

/**
 * `node` (a body as flow YAML) with the run's email and user name read from vars of their own,
 * each name added to `used` (declared by `runVarsOf`, valued as `APART_VARS` says).
 *
 * @example
 * ```ts
 * import { apartVars } from "./second_signup.ts";
 * const used = new Set<string>();
 * const got = apartVars({ kind: "map", entries: [["email", "${vars.email}"]] } as never, used);
 * if (!JSON.stringify(got).includes("${vars.own_email}") || !used.has("own_email")) throw new Error();
 * ```
 */
export function apartVars(node: YNode, used: Set<string>): YNode {
  if (Array.isArray(node)) return node.map((n) => apartVars(n, used));
  if (typeof node === "string") {
    return node.replace(/\$\{vars\.(email|username)\}/g, (_, name: string) => {
      used.add(`own_${name}`);
      return `\${vars.own_${name}}`;
    });
  }
  if (node !== null && typeof node === "object" && node.kind === "map") {
    return { ...node, entries: node.entries.map(([k, v]) => [k, apartVars(v, used)]) };
  }
  return node;
}
