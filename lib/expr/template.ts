/**
 * The expression language: `${…}` references inside strings of a flow.
 *
 * Templates are parsed once when a flow is loaded (so a malformed expression is
 * a load error with its column) and evaluated per request against a
 * {@linkcode Scope}. A string that is exactly one expression keeps the value's
 * type (a captured number stays a number); an expression inside a longer
 * string is interpolated as text. `$${` writes a literal `${`.
 *
 * | expression | meaning |
 * | --- | --- |
 * | `${ENV.NAME}` | environment variable (A) |
 * | `${NAME}` | run parameter or flow var, else environment variable (B) |
 * | `${vars.name}` | flow var (A) |
 * | `${vars.name.field}` | a field of a map var (A) |
 * | `${steps.s.capture.k}` / `${steps.s.k}` | value captured by step `s` (A / B) |
 * | `${RANDOM.UUID}`, `${RANDOM.HEX_32}` | fresh random values at each use |
 * | `${RANDOM.ALPHA_8}` | fresh lowercase letters, `a` to `z` |
 * | `${RANDOM.UPPER_8}` | fresh capital letters, `A` to `Z` |
 * | `${RANDOM.DIGITS_6}`, `${RANDOM.BOOL}` | a fresh number of 6 digits, true or false |
 * | `${RANDOM.PASSWORD}` | a fresh password of 16 characters that strength rules take |
 * | `${NOW.UNIX}`, `${NOW.UNIX_MS}`, `${NOW.ISO-30m}` | the time when the request is resolved, offset `s`/`m`/`h`/`d`/`w` |
 * | `${RUN_ID}` | the run id, the same for the whole run |
 * | `${TRACE_ID}` | the W3C trace id of this flow run (sent in `traceparent` with `--trace`) |
 * | `${ENV.NAME:-text}`, `${NAME:-text}` | fallback when the variable is unset or empty |
 * | `${raw:vars.qs}` | in a URL: inserted as written, not percent-encoded |
 * | `${origin:vars.base}` | the URL's origin (`http://h:1` of `http://h:1/api`), as a browser's `Origin` |
 * | `${host:vars.base}` | the URL's host and port (`h:1` of `http://h:1/api`), as a page writes its own address |
 *
 * This module evaluates templates; parsing is `parse.ts` (one reader per
 * reference head in `ref.ts`), re-exported here with the errors of
 * `errors.ts`, so that a caller imports the language from one place.
 *
 * @module
 */
import type { Expr, Ref, Template, ValueTemplate } from "../model/template.ts";
import { ExpressionError } from "./errors.ts";
import { nowValue } from "./now.ts";
import { hostOf, originOf } from "./origin.ts";
import { randomCapitals, randomLetters } from "./letters.ts";
import { randomPassword } from "./password.ts";
import { around, ownWords, told } from "../model/told.ts";

export type { Expr, Ref, Template, ValueTemplate } from "../model/template.ts";
export { ExpressionError, ExpressionSyntaxError } from "./errors.ts";
export { compileValue, expressionsOf, isConstant, parseTemplate } from "./parse.ts";

/** What expressions are evaluated against during a flow run. */
export interface Scope {
  env: (name: string) => string | undefined;
  /** Flow vars after run parameters were applied (parameters override and add). */
  vars: ReadonlyMap<string, unknown>;
  /** Captured values by step name. */
  steps: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
  runId: string;
  /** The W3C trace id of this flow run (32 hex), behind `${TRACE_ID}`; `""` when unknown. */
  traceId?: string;
  /** The outputs of the run's setup flows, behind `${setup.NAME}`; read-only. */
  setup?: ReadonlyMap<string, unknown>;
}

/**
 * `length` random lowercase hex digits, from the platform's secure generator.
 *
 * @example
 * ```ts
 * import { randomHex } from "./template.ts";
 * if (!/^[0-9a-f]{32}$/.test(randomHex(32))) throw new Error();
 * ```
 */
export function randomHex(length: number): string {
  const count = Math.ceil(length / 2);
  // Random bytes are drawn 4 KiB at a time: every flow run takes a trace id, and each draw
  // is a call into the runtime.
  if (poolUsed + count > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(Math.max(4096, count)));
    poolUsed = 0;
  }
  let out = "";
  for (let i = poolUsed; i < poolUsed + count; i++) out += HEX[pool[i]];
  poolUsed += count;
  return out.slice(0, length);
}

/**
 * A random number of `length` decimal digits (1 to 15), the first not 0, so
 * that it has as many digits as text as it has as a number.
 *
 * @example
 * ```ts
 * import { randomDigits } from "./template.ts";
 * const n = randomDigits(3);
 * if (!Number.isInteger(n) || n < 100 || n > 999) throw new Error(String(n));
 * ```
 */
export function randomDigits(length: number): number {
  // Each digit from a byte below 250 (25 × 10), so that every digit is as likely.
  let out = "";
  while (out.length < length) {
    const byte = parseInt(randomHex(2), 16);
    if (byte >= 250 || (out === "" && byte % 10 === 0)) continue;
    out += byte % 10;
  }
  return Number(out);
}

let pool = new Uint8Array(0);
let poolUsed = 0;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Like the shell's `${X:-text}`: the fallback applies when the variable is unset or empty. */
function orFallback(value: string | undefined, fallback: string | undefined): string | undefined {
  return (value === undefined || value === "") && fallback !== undefined ? fallback : value;
}

/**
 * The value of one expression in a scope; throws {@linkcode ExpressionError}
 * when it has none (an unset variable without fallback, a missing capture).
 *
 * @example
 * ```ts
 * import { parseTemplate, valueOf } from "./template.ts";
 * const [expr] = parseTemplate("${RUN_ID}").parts as [never];
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r-1" };
 * if (valueOf(expr, scope) !== "r-1") throw new Error();
 * ```
 */
export function valueOf(expr: Expr, scope: Scope): unknown {
  return resolve(expr, scope);
}

// A switch over small functions, not a table: evaluation runs for every request, and a
// switch keeps each call direct (a table's one call site would see every kind).
function resolve(expr: Expr, scope: Scope): unknown {
  return expr.origin || expr.host ? originValue(expr, scope) : refValue(expr, scope);
}

/**
 * `${origin:…}` (or `${host:…}`): the origin (or host and port) of the URL
 * the reference holds; anything else is an error.
 */
function originValue(expr: Expr, scope: Scope): string {
  const value = refValue(expr, scope);
  const origin = expr.host ? hostOf(value) : originOf(value);
  if (origin === undefined) {
    // The value is what the reference held (a capture's): a value of the message.
    throw new ExpressionError(
      around(
        `"${expr.text}" is not an absolute http or https URL: `,
        told`${JSON.stringify(value)}`,
        ".",
      ),
    );
  }
  return origin;
}

function refValue(expr: Expr, scope: Scope): unknown {
  const ref = expr.ref;
  switch (ref.kind) {
    case "env":
      return envValue(ref.name, expr, scope);
    case "name":
      return nameValue(ref.name, expr, scope);
    case "var":
      return ref.path ? fieldOf(ref.name, ref.path, expr, scope) : varValue(ref.name, expr, scope);
    case "step":
      return stepValue(ref.step, ref.key, expr, scope);
    case "setup":
      return setupValue(ref.name, expr, scope);
    case "now":
      return nowValue(ref.format, ref.offsetMs);
    case "run-id":
      return scope.runId;
    case "trace-id":
      return scope.traceId ?? "";
    default:
      return randomValue(ref);
  }
}

/** A fresh `${RANDOM.…}` value. */
function randomValue(ref: Extract<Ref, { kind: `random-${string}` }>): unknown {
  switch (ref.kind) {
    case "random-uuid":
      return crypto.randomUUID();
    case "random-hex":
      return randomHex(ref.length);
    case "random-alpha":
      return randomLetters(ref.length);
    case "random-upper":
      return randomCapitals(ref.length);
    case "random-digits":
      return randomDigits(ref.length);
    case "random-bool":
      return randomHex(1) < "8";
    case "random-password":
      return randomPassword();
  }
}

function envValue(name: string, expr: Expr, scope: Scope): string {
  const value = orFallback(scope.env(name), expr.fallback);
  if (value === undefined) {
    throw new ExpressionError(
      ownWords(`Environment variable ${name} is not set (in "${expr.text}").`),
    );
  }
  return value;
}

function nameValue(name: string, expr: Expr, scope: Scope): unknown {
  if (scope.vars.has(name)) return scope.vars.get(name);
  const value = orFallback(scope.env(name), expr.fallback);
  if (value === undefined) {
    throw new ExpressionError(
      ownWords(
        `"${name}" is not a flow var, run parameter or environment variable (in "${expr.text}").`,
      ),
    );
  }
  return value;
}

function varValue(name: string, expr: Expr, scope: Scope): unknown {
  if (!scope.vars.has(name)) {
    throw new ExpressionError(ownWords(`Flow var "${name}" is not defined (in "${expr.text}").`));
  }
  return scope.vars.get(name);
}

/** `${vars.article.title}`: a field of a map var, key by key; a missing one says which. */
function fieldOf(name: string, path: readonly string[], expr: Expr, scope: Scope): unknown {
  let at = varValue(name, expr, scope);
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    if (at === null || typeof at !== "object" || Array.isArray(at) || !Object.hasOwn(at, key)) {
      const where = `Var "${[name, ...path.slice(0, i)].join(".")}"`;
      // The keys the value has are its own (a captured answer's): values of the message.
      const keys = at !== null && typeof at === "object" && !Array.isArray(at)
        ? told`its keys: ${Object.keys(at).slice(0, 10).join(", ") || "none"}`
        : ownWords(
          `it is ${at === null ? "null" : Array.isArray(at) ? "a list" : `a ${typeof at}`}`,
        );
      throw new ExpressionError(
        around(`${where} has no field "${key}" (in "${expr.text}"; `, keys, ")."),
      );
    }
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function stepValue(step: string, key: string, expr: Expr, scope: Scope): unknown {
  const captured = scope.steps.get(step);
  if (!captured || !captured.has(key)) {
    throw new ExpressionError(
      ownWords(`Step "${step}" has no captured value "${key}" (in "${expr.text}").`),
    );
  }
  return captured.get(key);
}

function setupValue(name: string, expr: Expr, scope: Scope): unknown {
  if (!scope.setup?.has(name)) {
    // The run's own note on why (a setup flow that did not pass) beats a guess at a missing option.
    const why = scope.setup?.get("\0failed");
    const said = `No setup flow handed out "${name}" (in "${expr.text}"): `;
    // The setup's note quotes its own message: a value here.
    // A setup ran (`\0ran`, flows.ts) and left this one unset (skipped_outputs.ts).
    const unset = "the setup flow left it unset (a capture found nothing, or a step was skipped).";
    throw new ExpressionError(
      why === undefined
        ? ownWords(`${said}${scope.setup?.size ? unset : "run with --setup FILE."}`)
        : around(said, told`${why}`, " before it was evaluated."),
    );
  }
  return scope.setup.get(name);
}

/**
 * Formats a value for interpolation into a longer string: strings as they
 * are, everything else as JSON.
 *
 * @example
 * ```ts
 * import { toText } from "./template.ts";
 * if (toText(42) !== "42" || toText("a") !== "a" || toText([1]) !== "[1]") throw new Error();
 * ```
 */
export function toText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
}

/**
 * Evaluates a template. A template that is exactly one expression returns
 * the referenced value with its type; otherwise the parts are joined as text.
 * Throws {@linkcode ExpressionError} for an unresolvable reference.
 *
 * @example
 * ```ts
 * import { evaluate, parseTemplate } from "./template.ts";
 * const scope = {
 *   env: (name: string) => (name === "HOST" ? "api.test" : undefined),
 *   vars: new Map<string, unknown>([["n", 3]]),
 *   steps: new Map(),
 *   runId: "r1",
 * };
 * if (evaluate(parseTemplate("${vars.n}"), scope) !== 3) throw new Error();
 * if (evaluate(parseTemplate("https://${ENV.HOST}/${vars.n}"), scope) !== "https://api.test/3") throw new Error();
 * if (evaluate(parseTemplate("${ENV.PORT:-8080}"), scope) !== "8080") throw new Error();
 * ```
 */
export function evaluate(template: Template, scope: Scope): unknown {
  const parts = template.parts;
  if (parts.length === 1) {
    const only = parts[0];
    return typeof only === "string" ? only : resolve(only, scope);
  }
  let out = "";
  for (const part of parts) out += typeof part === "string" ? part : toText(resolve(part, scope));
  return out;
}

/**
 * Whether a template reads a step's capture that is not set (an `optional: true` source that
 * found nothing, or a step that did not run): with `omit_empty_headers`, such a header has no
 * value to send, as one that renders empty, and is left out rather than failing the step.
 *
 * @example
 * ```ts
 * import { parseTemplate, readsUnsetCapture } from "./template.ts";
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map([["login", new Map()]]), runId: "r" };
 * if (!readsUnsetCapture(parseTemplate("Bearer ${steps.login.capture.token}"), scope)) throw new Error();
 * if (readsUnsetCapture(parseTemplate("Bearer ${RUN_ID}"), scope)) throw new Error();
 * ```
 */
export function readsUnsetCapture(template: Template, scope: Scope): boolean {
  return template.parts.some((part) =>
    typeof part !== "string" && part.ref.kind === "step" &&
    !scope.steps.get(part.ref.step)?.has(part.ref.key)
  );
}

/**
 * Whether a template has expressions and every one renders as empty text (`Bearer ${ENV.TOKEN:-}`
 * with TOKEN unset): with `omit_empty_headers`, the words written around an empty value say
 * nothing on their own, so such a header is left out as one that renders empty. Postman, for one,
 * sends no `Authorization` header for a bearer token that is empty.
 *
 * @example
 * ```ts
 * import { parseTemplate, rendersOnlyEmpty } from "./template.ts";
 * const scope = { env: () => undefined, vars: new Map([["t", ""], ["u", "x"]]), steps: new Map(), runId: "r" };
 * if (!rendersOnlyEmpty(parseTemplate("Bearer ${vars.t}"), scope)) throw new Error();
 * if (rendersOnlyEmpty(parseTemplate("Bearer ${vars.u}"), scope)) throw new Error();
 * if (rendersOnlyEmpty(parseTemplate("Bearer"), scope)) throw new Error();
 * ```
 */
export function rendersOnlyEmpty(template: Template, scope: Scope): boolean {
  const exprs = template.parts.filter((part) => typeof part !== "string");
  return exprs.length > 0 && exprs.every((part) => toText(resolve(part, scope)) === "");
}

/** A property descriptor of a plain object's own enumerable, writable value. */
function ownValue(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}

/**
 * Evaluates a value template into a plain value.
 *
 * @example
 * ```ts
 * import { compileValue, render } from "./template.ts";
 * const scope = { env: () => undefined, vars: new Map([["id", 7]]), steps: new Map(), runId: "r" };
 * const body = render(compileValue({ id: "${vars.id}", tag: "run-${RUN_ID}" }), scope);
 * if (JSON.stringify(body) !== '{"id":7,"tag":"run-r"}') throw new Error();
 * ```
 */
export function render(value: ValueTemplate, scope: Scope): unknown {
  switch (value.kind) {
    case "const":
      return value.value;
    case "template":
      return evaluate(value.template, scope);
    case "list":
      return value.items.map((item) => render(item, scope));
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, v, key] of value.entries) {
        // An expanded key is data: "__proto__" is an own key like any other, never the prototype.
        if (key) {
          Object.defineProperty(out, toText(evaluate(key, scope)), ownValue(render(v, scope)));
        } else out[k] = render(v, scope);
      }
      return out;
    }
  }
}
