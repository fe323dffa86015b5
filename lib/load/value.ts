/**
 * A YAML value compiled into a value template: every string (map keys too)
 * parsed as a template by the loading context, which notes where each is
 * used so its references are checked; constant parts merged into constants.
 *
 * @module
 */
import type { Node, Scalar, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { compileValue, isConstant, type Template, type ValueTemplate } from "../expr/template.ts";
import type { Entry, TemplateUse } from "./entry.ts";

/** What reading a value needs of the loading context (`Loading` in context.ts). */
export interface ValueReader {
  template(node: Scalar, owner: TemplateUse["owner"]): Template | undefined;
  entries(node: YAMLMap): Entry[];
  deref(node: unknown): Node | null;
}

/**
 * A value whose parts are all constants, as one constant.
 *
 * @example
 * ```ts
 * import { mergeConst } from "./value.ts";
 * const merged = mergeConst({ kind: "list", items: [{ kind: "const", value: 1 }] });
 * if (merged.kind !== "const" || JSON.stringify(merged.value) !== "[1]") throw new Error();
 * ```
 */
export function mergeConst(value: ValueTemplate): ValueTemplate {
  if (value.kind === "list" && value.items.every((i) => i.kind === "const")) {
    return { kind: "const", value: value.items.map((i) => (i as { value: unknown }).value) };
  }
  if (value.kind === "map" && value.entries.every(([, v, key]) => v.kind === "const" && !key)) {
    return {
      kind: "const",
      value: Object.fromEntries(
        value.entries.map(([k, v]) => [k, (v as { value: unknown }).value]),
      ),
    };
  }
  return value;
}

/**
 * Compiles a YAML value; `undefined` when some part has a problem (reported
 * by `ctx`).
 *
 * @example
 * ```ts
 * import { Loading } from "./context.ts";
 * import { parseDocument } from "yaml";
 * const ctx = new Loading("f.yaml", {});
 * ctx.doc = parseDocument('{"${vars.pkg}.tgz": 1, "$${kept}": 2}');
 * const value = ctx.value(ctx.doc.contents, { kind: "outputs" });
 * if (value?.kind !== "map" || value.entries[0][2] === undefined || value.entries[1][0] !== "${kept}") {
 *   throw new Error();
 * }
 * ```
 */
export function readValue(
  ctx: ValueReader,
  node: Node | null,
  owner: TemplateUse["owner"],
): ValueTemplate | undefined {
  if (isScalar(node)) {
    if (typeof node.value !== "string") return { kind: "const", value: node.value ?? null };
    const template = ctx.template(node, owner);
    return template && compileValue(template.source);
  }
  if (isSeq(node)) {
    const items = node.items.map((i) => readValue(ctx, ctx.deref(i), owner));
    if (items.some((i) => i === undefined)) return undefined;
    return mergeConst({ kind: "list", items: items as ValueTemplate[] });
  }
  if (isMap(node)) return readMap(ctx, node, owner);
  if (node === null) return { kind: "const", value: null };
  return undefined;
}

/** A map's entries; a key with `${…}` is data too, expanded (and checked) like a value. */
function readMap(
  ctx: ValueReader,
  node: YAMLMap,
  owner: TemplateUse["owner"],
): ValueTemplate | undefined {
  const entries: [string, ValueTemplate, Template?][] = [];
  let ok = true;
  for (const e of ctx.entries(node)) {
    const v = readValue(ctx, e.value, owner);
    const templated = e.key.includes("${");
    const key = templated ? ctx.template(e.keyNode as Scalar, owner) : undefined;
    if (!v || (templated && key === undefined)) ok = false;
    else if (!key) entries.push([e.key, v]);
    else if (isConstant(key)) entries.push([key.parts.join(""), v]);
    else entries.push([e.key, v, key]);
  }
  return ok ? mergeConst({ kind: "map", entries }) : undefined;
}
