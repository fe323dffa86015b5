/**
 * `postman.setNextRequest(…)` (and `pm.execution.setNextRequest`) when it
 * only repeats the request (a poll: `if (status !== "done")
 * setNextRequest(pm.info.requestName)`), stops the run (`null`), or skips
 * ahead to a named request: what the flow does instead (a bounded loop,
 * no more steps, steps left out, or, for a jump on the response's status,
 * steps that run only when the status is not so). A jump under another
 * condition, or back to an earlier request, is left untranslated.
 *
 * @module
 */
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import type { Cond } from "./sym.ts";

/** Where a script sends the run next. */
export type NextRequest =
  | { kind: "repeat"; while: Cond[] }
  | { kind: "stop" }
  /** `when`: the jump is taken only when the response's status is so (one condition on `$.status`). */
  | { kind: "jump"; target: string; when?: Cond };

const CALLEES = new Set(["postman.setNextRequest", "pm.execution.setNextRequest"]);

/**
 * Whether `e` is a `setNextRequest` call.
 *
 * @example
 * ```ts
 * import { isNextRequest } from "./next.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("postman.setNextRequest(null)");
 * if (!p.ok || !isNextRequest(p.program.body[0].expression)) throw new Error();
 * ```
 */
export function isNextRequest(e: Node): boolean {
  return e.type === "CallExpression" && CALLEES.has(dotted(e.callee) ?? "");
}

/**
 * What a `setNextRequest` call does, given the conditions it runs under
 * (`undefined` when one of them cannot be said) and the request's name.
 *
 * @example
 * ```ts
 * import { nextRequest } from "./next.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("postman.setNextRequest(pm.info.requestName)");
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * const when = [{ path: "$.json.done", op: "equals", value: false }];
 * const next = p.ok ? nextRequest(p.program.body[0].expression, ctx, when, "Poll") : undefined;
 * if (next?.kind !== "repeat" || next.while[0].path !== "$.json.done") throw new Error();
 * ```
 */
export function nextRequest(
  e: Node,
  ctx: EvalContext,
  when: Cond[] | undefined,
  requestName: string,
): NextRequest | undefined {
  const arg = e.arguments[0];
  if (!arg || !when) return undefined;
  const self = dotted(arg) === "pm.info.requestName";
  const value = self ? { k: "lit", value: requestName } : evaluate(arg, ctx, 0);
  if (value?.k !== "lit") return undefined;
  if (value.value === requestName) {
    return when.length > 0 ? { kind: "repeat", while: when } : undefined;
  }
  if (when.length > 0) {
    const status = when.length === 1 && when[0].path === "$.status" ? when[0] : undefined;
    return status && typeof value.value === "string"
      ? { kind: "jump", target: value.value, when: status }
      : undefined;
  }
  if (value.value === null) return { kind: "stop" };
  return typeof value.value === "string" ? { kind: "jump", target: value.value } : undefined;
}
