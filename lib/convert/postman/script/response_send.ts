/**
 * `pm.sendRequest` in a test script that reads the response it follows, as
 * collections clean up: `const u = json.find(x => x.email === "t@x.io"); if (u)
 * pm.sendRequest({ url: base + "/users/" + u.id, method: "DELETE" })`. Newman
 * sends it when the `if` holds, at the URL the response gave. The flow sends it
 * as a step just after (flow.ts): each part of the response it reads is an
 * optional capture of the step (`first` of a pick), and the step runs only when
 * each is there and each condition of the `if`s around the call holds on what
 * was captured, so it is sent exactly when Newman sends it. A call whose
 * request or condition cannot be said is not sent, and the summary names it
 * (`unsent`) instead of leaving it to a comment only.
 *
 * @module
 */
import { dotted, type EvalContext } from "./eval.ts";
import type { Node } from "./parse.ts";
import { type Cond, isPseudo, type Sym } from "./sym.ts";
import { sideRequest } from "./side_request.ts";
import { requestEffect } from "./request_effect.ts";
import type { Translation } from "./translation.ts";
import type { PmRequest } from "../model.ts";
import { ymap, type YNode, type YScalar } from "../../yaml_out.ts";
import { yamlValue } from "../body.ts";
import { OPERATORS } from "../../../model/operators.ts";

/** The operators a step's `if` has, which a check's condition may be written with. */
const OPS: ReadonlySet<string> = new Set(OPERATORS);

/** Why a script's request is not sent, as the summary says it. */
const UNSAID = "a pm.sendRequest of its script whose request or condition the flow cannot " +
  "say: Newman may send it, the flow does not";

/**
 * Adds the request a test script's `pm.sendRequest` (`e`) sends, its captures and
 * conditions to `out`: `"kept"`; `"comment"` when it cannot be said (named in
 * `out.unsent`); `null` when `e` is no such call, or one that reads nothing of the
 * response under no condition (request_effect.ts sends it as before).
 *
 * @example
 * ```ts
 * import { responseSend } from "./response_send.ts";
 * import { parseScript } from "./parse.ts";
 * import { emptyTranslation } from "./translation.ts";
 * const source = 'pm.sendRequest({ url: "/users/" + pm.response.json()[0].id, method: "DELETE" }, () => {});';
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => undefined };
 * const out = emptyTranslation();
 * if (responseSend(p.program.body[0].expression, ctx, source, [], out) !== "kept") throw new Error();
 * if (out.sides?.[0].url !== "/users/{{sent1_1}}" || out.captures[0].path !== "$.json[0].id") {
 *   throw new Error(JSON.stringify(out));
 * }
 * ```
 */
export function responseSend(
  e: Node,
  ctx: EvalContext,
  source: string,
  when: (Cond[] | undefined)[],
  out: Translation,
): "kept" | "comment" | null {
  if (e.type !== "CallExpression" || dotted(e.callee) !== "pm.sendRequest") return null;
  const captures: Translation["captures"] = [];
  const at = (out.sides?.length ?? 0) + 1;
  const capture = (path: string, first: boolean) => {
    const name = `sent${at}_${captures.length + 1}`;
    captures.push({ name, path, forSend: true, ...(first ? { first: true } : {}) });
    return name;
  };
  // A part of the response (`u.id` of a picked element, `json[0].id`): the step's capture.
  const part = (s: Sym) =>
    (s.k === "pick" && s.list) || !("path" in s) || isPseudo(s.path)
      ? undefined
      : `{{${capture(s.path, s.k === "pick")}}}`;
  const side = sideRequest(e, { ...ctx, part }, source);
  if (side === null || (side && captures.length === 0 && when.length === 0)) return null;
  // Sent only with each part there (Newman's script fails reading a member of nothing).
  const sentIf: NonNullable<PmRequest["sentIf"]> = captures.map((c) => ({
    name: c.name,
    op: "exists",
    value: true,
  }));
  const conds = when.every((w) => w !== undefined) ? when.flat() as Cond[] : undefined;
  const said = side !== undefined && conds !== undefined &&
    conds.every((c) => OPS.has(c.op) && !isPseudo(c.path));
  if (!said) return "comment"; // named by the translator's skip (unsentInside)
  for (const c of conds) {
    sentIf.push({ name: capture(c.path, c.path.includes("[?")), op: c.op, value: c.value });
  }
  out.captures.push(...captures);
  (out.sides ??= []).push({ ...side, sentIf });
  return "kept";
}

/**
 * Names in `out.unsent` a test script's statement left untranslated that holds a
 * `pm.sendRequest` call: Newman may send it, the flow does not, and the summary says so.
 * (A pre-request script's, under an `if` on a token it caches, is sent once: sent_once.ts.)
 *
 * @example
 * ```ts
 * import { unsentInside } from "./response_send.ts";
 * import { parseScript } from "./parse.ts";
 * import { emptyTranslation } from "./translation.ts";
 * const p = parseScript("if (Math.random() > 0.5) { pm.sendRequest('/x', () => {}); }");
 * if (!p.ok) throw new Error(p.why);
 * const out = emptyTranslation();
 * unsentInside(p.program.body[0], out);
 * if (out.unsent?.length !== 1) throw new Error();
 * ```
 */
export function unsentInside(node: Node, out: Translation): void {
  if (callsIn(node).includes("pm.sendRequest")) (out.unsent ??= []).push(UNSAID);
}

/** The dotted names of the calls in `node` (`pm.sendRequest`), and `tests[…] =` as `tests`. */
function callsIn(node: Node): string[] {
  const calls: string[] = [];
  for (const stack: Node[] = [node]; stack.length > 0;) {
    const n = stack.pop()!;
    if (n.type === "CallExpression") calls.push(dotted(n.callee) ?? "");
    if (n.type === "AssignmentExpression") calls.push(dotted(n.left.object ?? n.left) ?? "");
    for (const child of Object.values(n)) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return calls;
}

/** What an `if` around a request a test script sends may read besides the response. */
const READS =
  /^(?:pm\.(?:variables|environment|collectionVariables|globals)\.get|pm\.response\.json|console\.\w+)$/;

/**
 * `if (u)` of an element a `find` picked (`value`), around a `pm.sendRequest` and nothing
 * else a flow would do (no check, no set): the element is there, the condition the request
 * is sent under (responseSend). Undefined for any other `if`.
 *
 * @example
 * ```ts
 * import { sendsIfFound } from "./response_send.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("if (u) { pm.sendRequest('/x/' + u.id, () => {}); }");
 * if (!p.ok) throw new Error(p.why);
 * const c = sendsIfFound(p.program.body[0], { k: "pick", path: "$.json[?@.a == 1]" });
 * if (c?.[0].op !== "truthy") throw new Error(JSON.stringify(c));
 * ```
 */
export function sendsIfFound(node: Node, value: Sym | undefined): Cond[] | undefined {
  if (value?.k !== "pick" || value.list) return undefined;
  const calls = callsIn(node);
  const sends = calls.includes("pm.sendRequest") &&
    calls.every((c) => c === "pm.sendRequest" || READS.test(c));
  return sends ? [{ path: value.path, op: "truthy", value: true }] : undefined;
}

/**
 * What a script's call `e` sends or changes of its request (request_effect.ts), a test
 * script's `pm.sendRequest` reading its response first (responseSend): `false` for neither.
 * `when` holds the conditions of the `if`s around it, `folded` how many `if`s a value known
 * now decided.
 *
 * @example
 * ```ts
 * import { scriptSend } from "./response_send.ts";
 * import { parseScript } from "./parse.ts";
 * import { emptyTranslation } from "./translation.ts";
 * const source = 'pm.sendRequest("/health", () => {});';
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => undefined };
 * const out = emptyTranslation();
 * if (scriptSend(p.program.body[0].expression, ctx, source, out, [], 0, false) !== "kept") throw new Error();
 * ```
 */
export function scriptSend(
  e: Node,
  ctx: EvalContext,
  source: string,
  out: Translation,
  when: (Cond[] | undefined)[],
  folded: number,
  preRequest: boolean,
): "kept" | "comment" | false {
  // A test script's pm.sendRequest is sent after the response it reads: a step just after.
  const tested = preRequest ? null : responseSend(e, ctx, source, when, out);
  if (tested !== null) return tested;
  // Only under conditions known here (`if (!token)`, no token yet): sent, once per flow.
  const once = when.length === 0 && folded > 0 ? source.slice(e.start, e.end) : undefined;
  return requestEffect(e, ctx, out, source, when.length > 0 || folded > 0, once);
}

/**
 * A step's `if`: the jump's guard (jump_skip.ts) and the conditions a test script's request
 * is sent under, each on its capture as `resolve` reads it.
 *
 * @example
 * ```ts
 * import { sentGuard } from "./response_send.ts";
 * const g = sentGuard(undefined, [{ name: "sent1_1", op: "exists", value: true }], (n) => `\${steps.a.capture.${n}}`);
 * if (JSON.stringify(g).indexOf("steps.a.capture.sent1_1") < 0) throw new Error(JSON.stringify(g));
 * ```
 */
export function sentGuard(
  guard: YNode | undefined,
  sentIf: PmRequest["sentIf"],
  resolve: (name: string) => string,
): YNode | undefined {
  if (!sentIf?.length) return guard;
  const conds: YNode[] = sentIf.map((c) =>
    ymap([["value", resolve(c.name)], [c.op, yamlValue(c.value) as YNode | YScalar]])
  );
  const all = guard === undefined ? conds : [guard, ...conds];
  return all.length === 1 ? all[0] : all;
}
