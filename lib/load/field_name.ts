/**
 * A form or multipart field NAME, which may hold `${…}`: a list's checkbox
 * names the row it picks (`chk_${steps.save.capture.id}`), so a second run
 * picks its own. Its expressions are checked where they are written, like a
 * value's; what it gives is checked when the request is made.
 *
 * @module
 */
import type { Scalar } from "yaml";
import type { Template } from "../model/template.ts";
import type { Loading } from "./context.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { isScalar } from "./nodes.ts";

/**
 * The field's name and, when it holds an expression, its template;
 * `undefined` after a problem (an expression that names nothing). A name
 * with only the `$${` escape is its literal text.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - {name: a, request: {url: "http://x.test"}, capture: {id: $.json.id}}\n' +
 *     '  - name: s\n    request: {url: "http://x.test", method: POST, form: {"chk_${steps.a.capture.id}": "on"}}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[1].request.form?.[0][2]?.source !== "chk_${steps.a.capture.id}") throw new Error();
 * ```
 */
export function fieldName(
  ctx: Loading,
  e: Entry,
  owner: TemplateUse["owner"],
): { name: string; nameFrom?: Template } | undefined {
  if (!e.key.includes("${") || !isScalar(e.keyNode)) return { name: e.key };
  const template = ctx.template(e.keyNode as Scalar, owner);
  if (!template) return undefined;
  if (template.parts.some((part) => typeof part !== "string")) {
    return { name: e.key, nameFrom: template };
  }
  return { name: template.parts.join("") };
}
