/**
 * A request's `headers` or `query` written as one expression that gives a
 * map (`headers: "${vars.headers}"`), so a set of headers or parameters can
 * be handed to an included flow through `with:` and sent whole. The map is
 * checked when the request is made (http/request_maps.ts); text around the
 * expression is one problem here.
 *
 * @module
 */
import { isScalar } from "./nodes.ts";
import type { Template } from "../model/template.ts";
import type { Loading } from "./context.ts";
import type { Entry, TemplateUse } from "./entry.ts";

/**
 * What a `headers` or `query` entry is: one expression (its template), not
 * an expression at all (`undefined`: read it as a map), or text around an
 * expression (`"refused"`: one problem, reported).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nvars: {h: {x-a: "1"}}\nsteps:\n  - name: s\n' +
 *     '    request: {url: "http://x.test", headers: "${vars.h}"}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[0].request.headersFrom?.source !== "${vars.h}") throw new Error();
 * ```
 */
export function mapExpression(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
  owner: TemplateUse["owner"],
): Template | "refused" | undefined {
  if (!entry) return undefined;
  const node = ctx.deref(entry.value);
  if (!isScalar(node) || typeof node.value !== "string" || !node.value.includes("${")) {
    return undefined;
  }
  const template = ctx.template(node, owner);
  if (!template) return "refused";
  const parts = template.parts;
  if (parts.length === 1 && typeof parts[0] !== "string") return template;
  ctx.problem(
    "wrong-type",
    `Expected ${what} to be a map, or one expression that gives a map, got the text ${
      JSON.stringify(node.value)
    }.`,
    node,
    `Write the map (${entry.key}: {name: value}) or one expression alone: ${entry.key}: "\${vars.${entry.key}}".`,
  );
  return "refused";
}
