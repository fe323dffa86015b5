/**
 * Flow templates as Artillery templates. `${ENV.X}` becomes
 * `{{ $env.X }}` (Artillery 2 reads the environment when the request is
 * made, so a secret never becomes a literal of the script); a capture,
 * flow var or run id becomes the virtual user's variable; `${RANDOM.…}`
 * and `${NOW.…}` a variable the processor makes fresh before each request that reads it,
 * as `flowrun run` makes one per reference. What has no counterpart is
 * noted, never dropped silently.
 *
 * @module
 */
import type { Expr, Ref, Template, ValueTemplate } from "../model/template.ts";
import { jsExpr } from "./js_value.ts";
import { dropsDefault } from "./secret_env.ts";
import {
  type Bound,
  captureName,
  type Fresh,
  note,
  type Place,
  RUN_ID_VAR,
  varName,
} from "./scope.ts";

/** `{{ name }}` in Artillery's syntax. */
const ref = (name: string): string => `{{ ${name} }}`;

/**
 * One expression as Artillery template text.
 *
 * @example
 * ```ts
 * import { exprText } from "./template.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const text = exprText({ ref: { kind: "env", name: "TOKEN" }, text: "${ENV.TOKEN}", offset: 0 }, place);
 * if (text !== "{{ $env.TOKEN }}" || !place.scope.env.has("TOKEN")) throw new Error(text);
 * ```
 */
export function exprText(expr: Expr, place: Place): string {
  if (expr.origin || expr.host) {
    const part = expr.host ? "host" : "origin";
    note(
      place,
      `"${expr.text}" has no counterpart in Artillery: the whole URL is sent, not its ${part}`,
    );
  }
  const bound = substitute(expr, place);
  if (bound) return valueText(bound);
  const r = expr.ref;
  switch (r.kind) {
    case "env":
      return envText(r.name, expr, place);
    case "name":
      return place.vars.has(r.name)
        ? ref(varName(place.flowIndex, r.name))
        : envText(r.name, expr, place);
    case "var":
      return ref([varName(place.flowIndex, r.name), ...(r.path ?? [])].join("."));
    case "step":
      return ref(captureName(place.flowIndex, r.step, r.key));
    case "run-id":
      return ref(RUN_ID_VAR);
    case "setup":
      if (place.scope.outputs.has(`setup_${r.name.replace(/\W/g, "_")}`)) {
        return ref(`setup_${r.name.replace(/\W/g, "_")}`);
      }
      note(
        place,
        `"${expr.text}" reads a setup flow's output, and no --setup flow gives it: it reads the environment variable ${r.name} instead`,
      );
      place.scope.env.add(r.name);
      return ref(`$env.${r.name}`);
    case "trace-id":
      note(place, `"${expr.text}" has no counterpart in Artillery: it is sent empty`);
      return "";
    default:
      // Random values and the time: drawn anew at each use.
      return ref(freshName(place, freshOf(r)));
  }
}

/**
 * What an expression stands for when its value is written elsewhere: a var
 * of an included flow that the include's `with` gives (read where the
 * include step is), or an included flow's output (read in that flow).
 */
function substitute(expr: Expr, place: Place): Bound | undefined {
  const r = expr.ref;
  if ((r.kind === "var" || r.kind === "name") && place.bound?.has(r.name)) {
    const bound = place.bound.get(r.name)!;
    if (r.kind === "name" || !r.path?.length) return bound;
    const field = r.path.reduce<Bound["value"] | undefined>(
      (value, key) =>
        value?.kind === "map" ? value.entries.find(([k]) => k === key)?.[1] : undefined,
      bound.value,
    );
    return field && { value: field, place: bound.place };
  }
  if (r.kind === "step") {
    const include = place.included?.get(r.step);
    const output = include?.outputs.get(r.key);
    if (include && output) return { value: output, place: include.place };
  }
  return undefined;
}

/** A substituted value as text: a structure as its JSON. */
function valueText({ value, place }: Bound): string {
  if (value.kind === "template") return templateText(value.template, place);
  const plain = templateValue(value, place);
  return typeof plain === "string" ? plain : JSON.stringify(plain) ?? "";
}

/** An environment variable; one with a fallback is read by the processor for each virtual user. */
function envText(name: string, expr: Expr, place: Place): string {
  place.scope.env.add(name);
  if (expr.fallback === undefined || dropsDefault(place, name)) return ref(`$env.${name}`);
  const variable = `f${place.flowIndex}_env_${name.replace(/\W/g, "_")}`;
  place.scope.perUser.set(variable, jsExpr(expr, place));
  return ref(variable);
}

/** How the processor makes a value flowrun draws anew at each use. */
function freshOf(r: Extract<Ref, { kind: FreshKind }>): Fresh {
  switch (r.kind) {
    case "random-uuid":
      return { kind: "uuid" };
    case "random-hex":
      return { kind: "hex", length: r.length };
    case "random-alpha":
      return { kind: "alpha", length: r.length };
    case "random-upper":
      return { kind: "upper", length: r.length };
    case "random-digits":
      return { kind: "digits", length: r.length };
    case "random-bool":
      return { kind: "bool" };
    case "random-password":
      return { kind: "password" };
    case "now":
      return { kind: "now", format: r.format, offsetMs: r.offsetMs };
  }
}

/** The references flowrun draws anew at each use. */
type FreshKind =
  | "random-uuid"
  | "random-hex"
  | "random-alpha"
  | "random-upper"
  | "random-digits"
  | "random-bool"
  | "random-password"
  | "now";

/** A new variable the processor fills before each request that reads it. */
function freshName(place: Place, fresh: Fresh): string {
  const name = `f${place.flowIndex}_fresh_${place.scope.fresh.size + 1}`;
  place.scope.fresh.set(name, fresh);
  return name;
}

/**
 * A template as Artillery template text.
 *
 * @example
 * ```ts
 * import { templateText } from "./template.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const template = { source: "/items/${RUN_ID}", parts: ["/items/", { ref: { kind: "run-id" as const }, text: "${RUN_ID}", offset: 7 }] };
 * if (templateText(template, place) !== "/items/{{ $uuid }}") throw new Error();
 * ```
 */
export function templateText(template: Template, place: Place): string {
  return template.parts.map((part) => typeof part === "string" ? part : exprText(part, place)).join(
    "",
  );
}

/**
 * A value (a body, a form field) as the value Artillery sends: constants
 * as they are, templates as template text, lists and maps item by item.
 *
 * @example
 * ```ts
 * import { templateValue } from "./template.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const value = templateValue({ kind: "map", entries: [["n", { kind: "const", value: 1 }]] }, place);
 * if (JSON.stringify(value) !== '{"n":1}') throw new Error();
 * ```
 */
export function templateValue(value: ValueTemplate, place: Place): unknown {
  switch (value.kind) {
    case "const":
      return value.value;
    case "template": {
      // A template that is one expression keeps the type of what it stands for.
      const [only, ...more] = value.template.parts;
      const bound = more.length === 0 && typeof only === "object"
        ? substitute(only, place)
        : undefined;
      return bound ? templateValue(bound.value, bound.place) : templateText(value.template, place);
    }
    case "list":
      return value.items.map((item) => templateValue(item, place));
    case "map":
      return Object.fromEntries(
        value.entries.map(([key, item, keyTemplate]) => [
          keyTemplate ? templateText(keyTemplate, place) : key,
          templateValue(item, place),
        ]),
      );
  }
}
