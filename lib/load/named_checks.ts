/**
 * The assert blocks that read the same in both spellings of paths:
 * `headers`, `cookies` and `duration`, each a map of names (or the response
 * time) to operators, compiled into path checks.
 *
 * @module
 */
import { isMap, isScalar } from "./nodes.ts";
import { type Operator, OPERATORS, type PathCheck } from "../model/flow.ts";
import { compilePath } from "../expr/path.ts";
import { parseDuration } from "../_util/duration.ts";
import { expectedValue } from "./expected.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { refuseExpression } from "./not_allowed.ts";

/** The operators of a check written as a map, or `equals` for a plain value. */
function operatorsOf(ctx: Loading, entry: Entry, what: string): [Operator, Entry][] {
  const node = ctx.deref(entry.value);
  if (!isMap(node)) return [["equals", entry]];
  const map = ctx.map(node, what, "check", OPERATORS);
  if (!map) return [];
  if (map.size === 0 && node.items.length === 0) {
    ctx.problem(
      "missing-key",
      `The check of ${what} has no operator.`,
      node,
      `Add one of: ${OPERATORS.join(", ")}; e.g. "exists: true".`,
    );
  }
  return [...map.entries()].map(([k, e]) => [k as Operator, e]);
}

/** The path a header or cookie check reads: a header's name compares case-insensitively. */
function namedBase(kind: "headers" | "cookies", key: string): string {
  const name = kind === "headers" ? key.toLowerCase() : key;
  const quoted = `'${name.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  return `$.${kind}[${quoted}]`;
}

/**
 * `headers: {content-type: {matches: json}, x-id: abc}` or
 * `cookies: {sid: {exists: true}}`: a value is `equals`, a map names
 * operators; a header's name compares case-insensitively, a cookie's
 * operators apply to its value (`exists` to the cookie).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {cookies: {sid: {exists: true, matches: '^s'}}}\n",
 *   "f.yaml",
 * );
 * const sources = flow?.steps[0].assert?.paths.map((c) => c.path.source);
 * if (sources?.join() !== "$.cookies['sid'],$.cookies['sid'].value") throw new Error();
 * ```
 */
export function namedChecks(
  ctx: Loading,
  entry: Entry,
  kind: "headers" | "cookies",
  what: string,
  owner: TemplateUse["owner"],
): PathCheck[] {
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected "${kind}" in ${what} to be a map of names to checks, got ${describe(node)}.`,
      node ?? entry.keyNode,
      kind === "headers"
        ? "For example: headers: {content-type: {matches: json}, cache-control: no-store}"
        : "For example: cookies: {sid: {exists: true}}",
    );
    return [];
  }
  const out: PathCheck[] = [];
  for (const e of ctx.entries(node)) {
    // The name is looked up as written: an expression in it would never match.
    if (refuseExpression(ctx, e.keyNode, `A ${kind.slice(0, -1)} name in ${what}`)) continue;
    const base = namedBase(kind, e.key);
    for (const [operator, opEntry] of operatorsOf(ctx, e, `${kind.slice(0, -1)} "${e.key}"`)) {
      const expected = expectedValue(ctx, operator, opEntry, owner);
      if (!expected) continue;
      const source = kind === "cookies" && operator !== "exists" ? `${base}.value` : base;
      out.push({
        path: compilePath(source, "response"),
        operator,
        expected,
        ...ctx.at(opEntry.keyNode),
      });
    }
  }
  return out;
}

/**
 * `duration: {lt: 500ms}`: the response time, with durations for the comparison operators.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {duration: {lt: 2s}}\n",
 *   "f.yaml",
 * );
 * const expected = flow?.steps[0].assert?.paths[0].expected;
 * if (expected?.kind !== "const" || expected.value !== 2000) throw new Error();
 * ```
 */
export function durationChecks(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
): PathCheck[] {
  const out: PathCheck[] = [];
  for (const [operator, opEntry] of operatorsOf(ctx, entry, `"duration" in ${what}`)) {
    if (!["lt", "lte", "gt", "gte"].includes(operator)) {
      ctx.problem(
        "wrong-type",
        `"duration" in ${what} takes lt, lte, gt or gte, not "${operator}".`,
        opEntry.keyNode,
        "For example: duration: {lt: 500ms}",
      );
      continue;
    }
    const v = isScalar(opEntry.value) ? opEntry.value.value : undefined;
    const ms = typeof v === "number" ? v : typeof v === "string" ? parseDuration(v) : undefined;
    const expected = ms !== undefined && !(typeof v === "string" && v.includes("${"))
      ? { kind: "const" as const, value: ms }
      : expectedValue(ctx, operator, opEntry, owner);
    if (!expected) continue;
    out.push({
      path: compilePath("$.duration_ms", "response"),
      operator,
      expected,
      name: "response time",
      ...ctx.at(opEntry.keyNode),
    });
  }
  return out;
}
