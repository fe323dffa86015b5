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
 * | `${steps.s.capture.k}` / `${steps.s.k}` | value captured by step `s` (A / B) |
 * | `${RANDOM.UUID}`, `${RANDOM.HEX_32}` | fresh random values at each use |
 * | `${RUN_ID}` | the run id, the same for the whole run |
 * | `${TRACE_ID}` | the W3C trace id of this flow run (sent in `traceparent` with `--trace`) |
 * | `${ENV.NAME:-text}`, `${NAME:-text}` | fallback when the variable is unset or empty |
 * | `${raw:vars.qs}` | in a URL: inserted as written, not percent-encoded |
 *
 * @module
 */
import { BoundedCache } from "../_util/bounded_cache.ts";
import { SyntaxAtError } from "../model/errors.ts";

export type { Expr, Ref, Template, ValueTemplate } from "../model/template.ts";
import type { Expr, Ref, Template, ValueTemplate } from "../model/template.ts";

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
 * A malformed expression, found while parsing a template.
 *
 * @example
 * ```ts
 * import { ExpressionSyntaxError, parseTemplate } from "./template.ts";
 * try {
 *   parseTemplate("id: ${vars.id");
 *   throw new Error("expected a syntax error");
 * } catch (error) {
 *   if (!(error instanceof ExpressionSyntaxError) || error.offset !== 4) throw error;
 * }
 * ```
 */
export class ExpressionSyntaxError extends SyntaxAtError {
  constructor(message: string, offset: number, hint?: string) {
    super("bad-expression", message, offset, hint);
    this.name = "ExpressionSyntaxError";
  }
}

/**
 * An expression that could not be resolved while running (an unset variable,
 * a missing capture).
 *
 * @example
 * ```ts
 * import { evaluate, ExpressionError, parseTemplate } from "./template.ts";
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * try {
 *   evaluate(parseTemplate("${ENV.TOKEN}"), scope);
 *   throw new Error("expected an unresolved expression");
 * } catch (error) {
 *   if (!(error instanceof ExpressionError)) throw error;
 * }
 * ```
 */
export class ExpressionError extends Error {
  readonly code = "unresolved-expression";
  constructor(message: string) {
    super(message);
    this.name = "ExpressionError";
  }
}

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const MAX_HEX = 4096;

function parseRef(inner: string, offset: number, text: string): Ref {
  const segments = inner.split(".");
  const bad = segments.find((s) => !SEGMENT.test(s));
  if (bad !== undefined) {
    throw new ExpressionSyntaxError(
      `Malformed expression "${text}": "${bad}" is not a valid name.`,
      offset,
      'Names are letters, digits, "_" and "-", joined by dots, e.g. ${vars.user_id}.',
    );
  }
  const [head, ...rest] = segments;
  const n = segments.length;
  if (head === "ENV" && n === 2) return { kind: "env", name: rest[0] };
  if (head === "vars" && n === 2) return { kind: "var", name: rest[0] };
  if (head === "steps" && n === 3) return { kind: "step", step: rest[0], key: rest[1] };
  if (head === "setup" && n === 2) return { kind: "setup", name: rest[0] };
  if (head === "steps" && n === 4 && rest[1] === "capture") {
    return { kind: "step", step: rest[0], key: rest[2] };
  }
  if (head === "RANDOM" && n === 2) {
    if (rest[0] === "UUID") return { kind: "random-uuid" };
    const hex = /^HEX_(\d+)$/.exec(rest[0]);
    if (hex && Number(hex[1]) >= 1 && Number(hex[1]) <= MAX_HEX) {
      return { kind: "random-hex", length: Number(hex[1]) };
    }
    throw new ExpressionSyntaxError(
      `Unknown random value "${text}".`,
      offset,
      `${
        rest[0] !== rest[0].toUpperCase() && /^(UUID|HEX_\d+)$/.test(rest[0].toUpperCase())
          ? `Did you mean \${RANDOM.${rest[0].toUpperCase()}}? `
          : ""
      }Use \${RANDOM.UUID} or \${RANDOM.HEX_<n>} with n from 1 to ${MAX_HEX}, e.g. \${RANDOM.HEX_32}.`,
    );
  }
  if (head === "RUN_ID" && n === 1) return { kind: "run-id" };
  if (head === "TRACE_ID" && n === 1) return { kind: "trace-id" };
  if (n === 1) return { kind: "name", name: head };
  const hints: Record<string, string> = {
    ENV: "Write ${ENV.NAME}.",
    vars: "Write ${vars.name}.",
    steps: "Write ${steps.<step>.capture.<key>} or ${steps.<step>.<key>}.",
    setup: "Write ${setup.NAME}: an output of the run's setup flow.",
    RANDOM: "Write ${RANDOM.UUID} or ${RANDOM.HEX_32}.",
  };
  // A known head in the wrong case: ${env.X}, ${Vars.x}, ${STEPS.a.b}.
  const cased = ["ENV", "vars", "steps", "RANDOM"].find((h) =>
    h.toLowerCase() === head.toLowerCase() && h !== head
  );
  throw new ExpressionSyntaxError(
    `Unknown expression "${text}".`,
    offset,
    (cased && `Did you mean "\${${cased}${text.slice(2 + head.length, -1)}}"? ${hints[cased]}`) ??
      hints[head] ??
      "Expressions are ${ENV.NAME}, ${NAME}, ${vars.name}, ${steps.<step>.capture.<key>}, ${steps.<step>.<key>}, ${RANDOM.UUID}, ${RANDOM.HEX_<n>}, ${RUN_ID} and ${TRACE_ID}.",
  );
}

/**
 * Parses a string into a template. Throws {@linkcode ExpressionSyntaxError}
 * with the offset of the first malformed expression.
 *
 * @example
 * ```ts
 * import { parseTemplate } from "./template.ts";
 * const t = parseTemplate("Bearer ${steps.login.capture.token}");
 * if (t.parts.length !== 2 || t.parts[0] !== "Bearer ") throw new Error();
 * if (parseTemplate("cost: $${price}").parts[0] !== "cost: ${price}") throw new Error();
 * ```
 */
export function parseTemplate(source: string): Template {
  return PARSED.get(source, () => {
    const template = parseFresh(source);
    // Shared by every use: frozen, so a change to one flow's copy cannot reach another's.
    for (const part of template.parts) {
      if (typeof part !== "string") Object.freeze(Object.freeze(part).ref);
    }
    Object.freeze(template.parts);
    return Object.freeze(template);
  });
}

/**
 * Parsed templates by source. Flows of a suite repeat their templates
 * (`Bearer ${steps.login.capture.token}` in every step of every flow), and a
 * template is only read once parsed: one copy each keeps loaded flows small
 * and spares the parse. Bounded, like the compiled paths.
 */
const PARSED = new BoundedCache<Template>(2_000);

function parseFresh(source: string): Template {
  const parts: (string | Expr)[] = [];
  let literal = "";
  let i = 0;
  while (i < source.length) {
    const at = source.indexOf("$", i);
    if (at === -1) {
      literal += source.slice(i);
      break;
    }
    literal += source.slice(i, at);
    if (source.startsWith("$${", at)) {
      literal += "${";
      i = at + 3;
      continue;
    }
    if (source[at + 1] !== "{") {
      literal += "$";
      i = at + 1;
      continue;
    }
    const close = source.indexOf("}", at + 2);
    if (close === -1) {
      throw new ExpressionSyntaxError(
        `Unclosed expression "${source.slice(at, at + 40)}": "\${" has no matching "}".`,
        at,
        'Close it with "}", or write "$${" for a literal "${".',
      );
    }
    const text = source.slice(at, close + 1);
    const rawPrefix = /^\s*raw:/.exec(source.slice(at + 2, close))?.[0] ?? "";
    const raw = rawPrefix !== "";
    const body = source.slice(at + 2 + rawPrefix.length, close);
    const sep = body.indexOf(":-");
    const inner = (sep === -1 ? body : body.slice(0, sep)).trim();
    if (inner === "") {
      throw new ExpressionSyntaxError(
        `Empty expression "${text}".`,
        at,
        'Write a reference such as ${vars.name}, or "$${" for a literal "${".',
      );
    }
    const ref = parseRef(inner, at, text);
    const expr: Expr = { ref, text, offset: at, ...(raw ? { raw: true } : {}) };
    if (sep !== -1) {
      if (ref.kind !== "env" && ref.kind !== "name") {
        throw new ExpressionSyntaxError(
          `A fallback ":-" cannot follow "${inner}" in "${text}".`,
          at,
          "Fallbacks apply to variables that may be unset: ${ENV.NAME:-value} or ${NAME:-value}.",
        );
      }
      expr.fallback = body.slice(sep + 2);
      if (expr.fallback.includes("${")) {
        throw new ExpressionSyntaxError(
          `A fallback cannot hold another expression: "${source.slice(at, close + 2)}".`,
          at + 2 + rawPrefix.length + sep + 2,
          "Give a literal fallback (${ENV.A:-text}); to fall back on another variable, define a var from it and use ${vars.name}.",
        );
      }
    }
    if (literal !== "") parts.push(literal);
    literal = "";
    parts.push(expr);
    i = close + 1;
  }
  if (literal !== "" || parts.length === 0) parts.push(literal);
  return { source, parts };
}

/**
 * Whether a template has no expressions (its single part is its text).
 *
 * @example
 * ```ts
 * import { isConstant, parseTemplate } from "./template.ts";
 * if (!isConstant(parseTemplate("plain"))) throw new Error();
 * if (isConstant(parseTemplate("${RUN_ID}"))) throw new Error();
 * ```
 */
export function isConstant(template: Template): boolean {
  return template.parts.every((p) => typeof p === "string");
}

/**
 * Every expression of a value template, in document order.
 *
 * @example
 * ```ts
 * import { compileValue, expressionsOf } from "./template.ts";
 * const found = [...expressionsOf(compileValue({ a: "${RUN_ID}", b: ["${vars.x}"] }))];
 * if (found.map((f) => f.expr.text).join() !== "${RUN_ID},${vars.x}") throw new Error();
 * ```
 */
export function* expressionsOf(
  value: ValueTemplate,
): Generator<{ expr: Expr; template: Template }> {
  switch (value.kind) {
    case "template":
      for (const p of value.template.parts) {
        if (typeof p !== "string") yield { expr: p, template: value.template };
      }
      break;
    case "list":
      for (const item of value.items) yield* expressionsOf(item);
      break;
    case "map":
      for (const [, item] of value.entries) yield* expressionsOf(item);
      break;
  }
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

function resolve(expr: Expr, scope: Scope): unknown {
  const ref = expr.ref;
  switch (ref.kind) {
    case "env": {
      const value = orFallback(scope.env(ref.name), expr.fallback);
      if (value === undefined) {
        throw new ExpressionError(
          `Environment variable ${ref.name} is not set (in "${expr.text}").`,
        );
      }
      return value;
    }
    case "name": {
      if (scope.vars.has(ref.name)) return scope.vars.get(ref.name);
      const value = orFallback(scope.env(ref.name), expr.fallback);
      if (value === undefined) {
        throw new ExpressionError(
          `"${ref.name}" is not a flow var, run parameter or environment variable (in "${expr.text}").`,
        );
      }
      return value;
    }
    case "var":
      if (!scope.vars.has(ref.name)) {
        throw new ExpressionError(`Flow var "${ref.name}" is not defined (in "${expr.text}").`);
      }
      return scope.vars.get(ref.name);
    case "step": {
      const captured = scope.steps.get(ref.step);
      if (!captured || !captured.has(ref.key)) {
        throw new ExpressionError(
          `Step "${ref.step}" has no captured value "${ref.key}" (in "${expr.text}").`,
        );
      }
      return captured.get(ref.key);
    }
    case "setup": {
      if (!scope.setup?.has(ref.name)) {
        throw new ExpressionError(
          `No setup flow handed out "${ref.name}" (in "${expr.text}"): run with --setup FILE.`,
        );
      }
      return scope.setup.get(ref.name);
    }
    case "random-uuid":
      return crypto.randomUUID();
    case "random-hex":
      return randomHex(ref.length);
    case "run-id":
      return scope.runId;
    case "trace-id":
      return scope.traceId ?? "";
  }
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
 * Parses every string inside a plain value (from YAML) into a template;
 * subtrees without expressions stay constants so rendering them is free.
 * Throws {@linkcode ExpressionSyntaxError} from {@linkcode parseTemplate}.
 *
 * @example
 * ```ts
 * import { compileValue } from "./template.ts";
 * if (compileValue({ a: [1, "x"] }).kind !== "const") throw new Error();
 * if (compileValue({ a: "${RUN_ID}" }).kind !== "map") throw new Error();
 * ```
 */
export function compileValue(value: unknown): ValueTemplate {
  if (typeof value === "string") {
    const template = parseTemplate(value);
    return isConstant(template)
      ? { kind: "const", value: template.parts[0] }
      : { kind: "template", template };
  }
  if (Array.isArray(value)) {
    const items = value.map(compileValue);
    return items.every((i) => i.kind === "const")
      ? { kind: "const", value: items.map((i) => (i as { value: unknown }).value) }
      : { kind: "list", items };
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) =>
      [k, compileValue(v)] as [string, ValueTemplate]
    );
    return entries.every(([, v]) => v.kind === "const")
      ? {
        kind: "const",
        value: Object.fromEntries(entries.map(([k, v]) => [k, (v as { value: unknown }).value])),
      }
      : { kind: "map", entries };
  }
  return { kind: "const", value };
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
      for (const [k, v] of value.entries) out[k] = render(v, scope);
      return out;
    }
  }
}
