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
 * operation of the document never sent counts against the suite.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { ymap } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import type { Login } from "./login.ts";

/**
 * Adds to the login's second sign-up the condition that the first was refused (see the module doc).
 *
 * @example
 * ```ts
 * import { fillSecondSignup } from "./second_signup.ts";
 * import type { OpenApiOperation } from "./operations.ts";
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
  shared: { inferred: { login?: Login }; doc?: Node },
  fill: BodyFill,
) {
  const { login } = shared.inferred;
  if (!login?.register || fill.op !== login.alternate || !fill.ifs) return;
  const first = fill.stepOf.get(login.register);
  if (first === undefined) return;
  const status = fill.capture(first, "signup_status", "$.status");
  fill.ifs.push(ymap([["value", status], ["gte", 300]]));
}
