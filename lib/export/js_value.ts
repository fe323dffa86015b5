/**
 * Flow values as JavaScript expressions for the processor file, which
 * computes them once per virtual user, as `flowrun run` evaluates vars
 * once per flow run: `v` is the user's variables, `env(name, fallback)`,
 * `uuid()`, `hex(n)` and `now(format, offsetMs)` are the processor's helpers. Constants are written
 * as JSON, so a value is never code.
 *
 * @module
 */
import type { Expr, Ref, ValueTemplate } from "../model/template.ts";
import { captureName, note, type Place, RUN_ID_VAR, varName } from "./scope.ts";
import { dropsDefault } from "./secret_env.ts";

const str = (text: string): string => JSON.stringify(text);

/** A read of the user's variable `name`, with an optional field path. */
function userVar(name: string, path: readonly string[] = []): string {
  return `v[${str(name)}]` + path.map((key) => `?.[${str(key)}]`).join("");
}

/** A var the include's `with` gives, or an included flow's output: the value it stands for. */
function substituted(expr: Expr, place: Place): string | undefined {
  const r = expr.ref;
  const bound = (r.kind === "var" || r.kind === "name") ? place.bound?.get(r.name) : undefined;
  if (bound) return jsValue(bound.value, bound.place);
  const include = r.kind === "step" ? place.included?.get(r.step) : undefined;
  const output = r.kind === "step" ? include?.outputs.get(r.key) : undefined;
  return include && output ? jsValue(output, include.place) : undefined;
}

/**
 * One expression as JavaScript.
 *
 * @example
 * ```ts
 * import { jsExpr } from "./js_value.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const code = jsExpr({ ref: { kind: "env", name: "A" }, fallback: "x", text: "${ENV.A:-x}", offset: 0 }, place);
 * if (code !== 'env("A", "x")') throw new Error(code);
 * ```
 */
export function jsExpr(expr: Expr, place: Place): string {
  const r = expr.ref;
  const standIn = substituted(expr, place);
  if (standIn !== undefined) return standIn;
  if (isRandom(r)) return randomCode(r);
  const fallback = fallbackOf(expr, place);
  switch (r.kind) {
    case "env":
      place.scope.env.add(r.name);
      return `env(${str(r.name)}, ${fallback})`;
    case "name":
      if (place.vars.has(r.name)) return userVar(varName(place.flowIndex, r.name));
      place.scope.env.add(r.name);
      return `env(${str(r.name)}, ${fallback})`;
    case "var":
      return userVar(varName(place.flowIndex, r.name), r.path);
    case "run-id":
      return userVar(RUN_ID_VAR);
    case "now":
      return `now(${str(r.format)}, ${r.offsetMs})`;
    case "setup":
      if (place.scope.outputs.has(`setup_${r.name.replace(/\W/g, "_")}`)) {
        return userVar(`setup_${r.name.replace(/\W/g, "_")}`);
      }
      return `env(${str(r.name)}, ${fallback})`;
    case "step":
      // A capture, read as the request is made (a value in its URL): the user's variable.
      return userVar(captureName(place.flowIndex, r.step, r.key));
    default:
      note(
        place,
        `"${expr.text}" has no counterpart in the Artillery script's processor: it is empty`,
      );
      return '""';
  }
}

type RandomRef = Extract<Ref, { kind: `random-${string}` }>;

function isRandom(r: Ref): r is RandomRef {
  return r.kind.startsWith("random-");
}

/** The processor's call that draws a `${RANDOM.…}` value. */
function randomCode(r: RandomRef): string {
  if (r.kind === "random-hex") return `hex(${r.length})`;
  if (r.kind === "random-alpha") return `alpha(${r.length})`;
  if (r.kind === "random-upper") return `upper(${r.length})`;
  if (r.kind === "random-digits") return `digits(${r.length})`;
  return { "random-uuid": "uuid()", "random-bool": "bool()", "random-password": "password()" }[
    r.kind
  ];
}

/** The JavaScript of `expr`'s `:-` default: `undefined` when none or a credential's. */
function fallbackOf(expr: Expr, place: Place): string {
  const r = expr.ref;
  if (expr.fallback === undefined) return "undefined";
  const named = r.kind === "env" || r.kind === "name" ? r.name : undefined;
  if (named !== undefined && !place.vars.has(named) && dropsDefault(place, named)) {
    return "undefined";
  }
  return str(expr.fallback);
}

/**
 * A value as JavaScript: a template of one expression keeps the
 * expression's own value (a map var stays a map), a longer one is text.
 *
 * @example
 * ```ts
 * import { jsValue } from "./js_value.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * if (jsValue({ kind: "list", items: [{ kind: "const", value: "a" }] }, place) !== '["a"]') throw new Error();
 * ```
 */
export function jsValue(value: ValueTemplate, place: Place): string {
  switch (value.kind) {
    case "const":
      return JSON.stringify(value.value) ?? "null";
    case "template": {
      const parts = value.template.parts;
      if (parts.length === 1 && typeof parts[0] !== "string") return jsExpr(parts[0], place);
      const pieces = parts.map((part) =>
        typeof part === "string" ? str(part) : `String(${jsExpr(part, place)} ?? "")`
      );
      return pieces.length === 0 ? '""' : pieces.join(" + ");
    }
    case "list":
      return `[${value.items.map((item) => jsValue(item, place)).join(", ")}]`;
    case "map":
      return `{ ${
        value.entries.map(([key, item]) => `${str(key)}: ${jsValue(item, place)}`).join(", ")
      } }`;
  }
}
