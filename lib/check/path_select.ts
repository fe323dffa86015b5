/**
 * How path checks and group conditions find their values: from the response,
 * or from each value a chain of group `at` paths selects.
 *
 * @module
 */
import { type Scope, valueOf } from "../expr/template.ts";
import { type CompiledPath, resolvePath, select } from "../expr/path.ts";
import type { ReceivedResponse, ResponseSelection } from "../http/response.ts";

/** Selects a path's values from some document: the response, or a value a group's `at` selected. */
export type Selector = (path: CompiledPath) => ResponseSelection;

/**
 * A selector over the response, with the path's expressions resolved in `scope`.
 *
 * @example
 * ```ts
 * import { pathSelector } from "./path_select.ts";
 * import { compilePath } from "../expr/path.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * const response = new ReceivedResponse(200, {}, '{"a": 1}');
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const got = pathSelector(response, scope)(compilePath("$.json.a", "response"));
 * if (!got.found || got.value !== 1) throw new Error();
 * ```
 */
export function pathSelector(response: ReceivedResponse, scope: Scope): Selector {
  return (path) => response.select(resolvePath(path, (e) => valueOf(e, scope)));
}

/** A value a chain of `at` paths selected, labelled for messages. */
export interface BaseValue {
  value: unknown;
  /** `$.json.articles[*] value 2 of 5`. */
  label: string;
}

/**
 * The values a chain of `at` paths selects, each labelled for messages
 * (`$.json.articles[*] value 2 of 5`), or why there are none.
 *
 * @example
 * ```ts
 * import { baseValues } from "./path_select.ts";
 * import { compilePath } from "../expr/path.ts";
 * import { pathEngine } from "../expr/path_engine.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * import { ReceivedResponse } from "../http/response.ts";
 * const response = new ReceivedResponse(200, {}, '{"items": [{"id": 1}, {"id": 2}]}');
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const got = baseValues([compilePath("$.json.items[*]", "response")], response, scope);
 * if (!("values" in got) || got.values[1].label !== "$.json.items[*] value 2 of 2") throw new Error();
 * ```
 */
export function baseValues(
  base: readonly CompiledPath[],
  response: ReceivedResponse,
  scope: Scope,
): { values: BaseValue[] } | { missing: string } {
  let values: BaseValue[] = [{ value: undefined, label: "" }];
  base.forEach((at, i) => {
    const next: BaseValue[] = [];
    for (const v of values) {
      const selection = i === 0
        ? pathSelector(response, scope)(at)
        : select(resolvePath(at, (e) => valueOf(e, scope)), v.value);
      // One at a time: a list of a hundred thousand values would overflow a spread's arguments.
      for (const b of selected(at, selection, `${v.label}${v.label ? " › " : ""}${at.source}`)) {
        next.push(b);
      }
    }
    values = next;
  });
  // A singular "at" that matched nothing is a failure; a wildcard that matched nothing is none to check.
  const empty = values.length === 0 && base.every((b) => b.singular);
  return empty
    ? { missing: `${base.map((b) => b.source).join(" › ")} matched nothing` }
    : { values };
}

/** The values one `at` path selected: its one value, or each of a list, numbered. */
function selected(
  at: CompiledPath,
  selection: { found: boolean; value: unknown },
  label: string,
): BaseValue[] {
  if (at.singular) return selection.found ? [{ value: selection.value, label }] : [];
  const list = selection.value as unknown[];
  return list.map((value, n) => ({ value, label: `${label} value ${n + 1} of ${list.length}` }));
}
