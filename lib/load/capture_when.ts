/**
 * A capture's `when` and `otherwise`: a value a script keeps only when the
 * response says so (`if (code === 201) set("id", json.id)`), and the earlier
 * value it keeps otherwise, which a capture alone cannot say.
 *
 * @module
 */
import type { PathRoot } from "../expr/path.ts";
import type { GroupCondition } from "../model/flow.ts";
import type { ValueTemplate } from "../model/template.ts";
import type { Loading } from "./context.ts";
import { loadGroupConditions } from "./conditions.ts";
import type { Entry, TemplateUse } from "./entry.ts";

/** A capture's condition and its value when the condition does not hold. */
export interface CaptureWhen {
  when?: GroupCondition[];
  otherwise?: ValueTemplate;
}

/**
 * `when` (conditions on the response, like a check group's `if`) and
 * `otherwise` (any value, usually `${steps.<earlier>.capture.<key>}`):
 * `{}` when neither is written, undefined with the problem reported.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow, problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: a\n    request: {url: "http://x.test"}\n    capture: {id: $.json.id}\n' +
 *     '  - name: b\n    request: {url: "http://x.test"}\n' +
 *     '    capture: {id: {path: $.json.id, when: {path: $.status, equals: 201}, otherwise: "${steps.a.capture.id}"}}\n',
 *   "f.yaml",
 * );
 * const from = flow?.steps[1].captures[0].from;
 * if (problems.length > 0 || from?.when?.[0].kind !== "path" || !from.otherwise) throw new Error();
 * ```
 */
export function captureWhen(
  ctx: Loading,
  map: Map<string, Entry>,
  root: PathRoot,
  what: string,
  owner: TemplateUse["owner"],
): CaptureWhen | undefined {
  const whenEntry = map.get("when");
  const otherwiseEntry = map.get("otherwise");
  if (otherwiseEntry && !whenEntry) {
    ctx.problem(
      "missing-key",
      `The "otherwise" value of ${what} needs a "when" to depend on.`,
      otherwiseEntry.keyNode,
      'Add the condition, e.g. when: {path: $.status, equals: 201}, or remove "otherwise".',
    );
    return undefined;
  }
  if (!whenEntry) return {};
  const when = loadGroupConditions(ctx, whenEntry, `"when" of ${what}`, owner, root, []);
  if (when.length === 0) return undefined;
  if (!otherwiseEntry) return { when };
  const otherwise = ctx.value(otherwiseEntry.value, owner);
  return otherwise ? { when, otherwise } : undefined;
}
