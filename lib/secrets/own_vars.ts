/**
 * A flow's own text kept in its `vars:`: a value written as a literal (`reqKey: order-7`), or
 * made only of such vars and text (`chained: "${vars.base}-42"`), is what the flow file says, as
 * the same constant written under a header is. Postman's converter keeps a collection variable
 * exactly so (`vars: {reqKey: order-7}`, `X-Request-Key: ${vars.reqKey}`); read as a secret by the
 * header's name, it was masked in every report while the same text written in place was shown.
 * What an environment variable, a capture, a run's random value or a setup output brings is no
 * such text, nor is a field of a map var.
 *
 * @module
 */
import type { Template, ValueTemplate } from "../model/template.ts";
import type { VarDef } from "../model/flow.ts";

/** The text of a template that only the flow's own text makes, and the vars it reads. */
export interface OwnText {
  text: string;
  /** The flow's vars the text is made of, directly or through another var. */
  vars: Set<string>;
}

/** Each var of the flow whose value is its own text, by name (no entry: not its own). */
export type OwnVars = ReadonlyMap<string, OwnText>;

/** A var whose definition reads itself through others is no text: one pass per var at most. */
const NOT_YET = Symbol("resolving");

/**
 * The vars of a flow whose values are its own text: a string or number written as is, or a
 * template whose every expression reads such a var (`${vars.x}` or `${x}` where `x` is a var
 * of the flow).
 *
 * @example
 * ```ts
 * import { ownVars } from "./own_vars.ts";
 * import { compileValue } from "../expr/template.ts";
 * const own = ownVars([
 *   { name: "base", value: compileValue("batch") },
 *   { name: "chained", value: compileValue("${vars.base}-42") },
 *   { name: "fromEnv", value: compileValue("${ENV.TOKEN}") },
 *   { name: "made", value: compileValue("k-${RANDOM.HEX_8}") },
 * ]);
 * if (own.get("chained")?.text !== "batch-42" || own.has("fromEnv") || own.has("made")) {
 *   throw new Error([...own.keys()].join());
 * }
 * ```
 */
export function ownVars(vars: readonly VarDef[]): Map<string, OwnText> {
  const defs = new Map(vars.map((v) => [v.name, v.value]));
  const found = new Map<string, OwnText | undefined | typeof NOT_YET>();
  const resolve = (name: string): OwnText | undefined => {
    const known = found.get(name);
    if (known === NOT_YET) return undefined;
    if (found.has(name)) return known;
    found.set(name, NOT_YET);
    const value = defs.get(name);
    const own = value === undefined ? undefined : valueText(value, resolve);
    if (own) own.vars.add(name);
    found.set(name, own);
    return own;
  };
  const own = new Map<string, OwnText>();
  for (const name of defs.keys()) {
    const text = resolve(name);
    if (text) own.set(name, text);
  }
  return own;
}

/** A var's value as the flow's own text: a string or number, or a template of own vars. */
function valueText(
  value: ValueTemplate,
  resolve: (name: string) => OwnText | undefined,
): OwnText | undefined {
  if (value.kind === "const") {
    const v = value.value;
    return typeof v === "string" || typeof v === "number"
      ? { text: String(v), vars: new Set() }
      : undefined;
  }
  return value.kind === "template" ? templateText(value.template, resolve) : undefined;
}

/**
 * The text `template` renders to when it reads only the flow's own vars (`own`), with the vars it
 * reads; undefined when an expression brings anything else (an environment variable, a capture,
 * a random value, a field of a map var, an origin) or when it reads no var at all.
 *
 * @example
 * ```ts
 * import { ownTemplateText, ownVars } from "./own_vars.ts";
 * import { compileValue, parseTemplate } from "../expr/template.ts";
 * const own = ownVars([{ name: "reqKey", value: compileValue("order-7") }]);
 * const text = ownTemplateText(parseTemplate("${reqKey}"), own);
 * if (text?.text !== "order-7" || !text.vars.has("reqKey")) throw new Error();
 * if (ownTemplateText(parseTemplate("${ENV.KEY}"), own) !== undefined) throw new Error();
 * ```
 */
export function ownTemplateText(template: Template, own: OwnVars): OwnText | undefined {
  const found = templateText(template, (name) => own.get(name));
  return found && found.vars.size > 0 ? found : undefined;
}

function templateText(
  template: Template,
  resolve: (name: string) => OwnText | undefined,
): OwnText | undefined {
  let text = "";
  const vars = new Set<string>();
  for (const part of template.parts) {
    if (typeof part === "string") {
      text += part;
      continue;
    }
    const { ref } = part;
    const name = ref.kind === "name" || (ref.kind === "var" && ref.path === undefined)
      ? ref.name
      : undefined;
    const own = name !== undefined && !part.origin && !part.host ? resolve(name) : undefined;
    if (own === undefined) return undefined;
    text += own.text;
    for (const name of own.vars) vars.add(name);
  }
  return { text, vars };
}
