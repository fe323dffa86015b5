/**
 * Parsing the expression language: a flow's strings become templates of
 * literal text and `${…}` expressions once, when the flow is loaded, so a
 * malformed expression is a load error with its column. Evaluating them is
 * `template.ts`.
 *
 * @module
 */
import { BoundedCache } from "../_util/bounded_cache.ts";
import type { Expr, Ref, Template, ValueTemplate } from "../model/template.ts";
import { ExpressionSyntaxError } from "./errors.ts";
import { parseRef } from "./ref.ts";
import { originOf, takesOrigin } from "./origin.ts";

/**
 * Parses a string into a template. Throws {@linkcode ExpressionSyntaxError}
 * with the offset of the first malformed expression.
 *
 * @example
 * ```ts
 * import { parseTemplate } from "./parse.ts";
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
    } else if (source[at + 1] !== "{") {
      literal += "$";
      i = at + 1;
    } else {
      const { expr, end } = readExpression(source, at);
      if (literal !== "") parts.push(literal);
      literal = "";
      parts.push(expr);
      i = end;
    }
  }
  if (literal !== "" || parts.length === 0) parts.push(literal);
  return { source, parts };
}

/** The expression whose `${` is at `at`, and the offset just past its `}`. */
function readExpression(source: string, at: number): { expr: Expr; end: number } {
  const close = source.indexOf("}", at + 2);
  if (close === -1) {
    throw new ExpressionSyntaxError(
      `Unclosed expression "${source.slice(at, at + 40)}": "\${" has no matching "}".`,
      at,
      'Close it with "}", or write "$${" for a literal "${".',
    );
  }
  const text = source.slice(at, close + 1);
  // `${origin:-x}` is the name "origin" with a fallback, not the prefix (and `${host:-x}` too).
  const prefixed = /^\s*(raw|origin(?!:-)|host(?!:-)):/.exec(source.slice(at + 2, close));
  const rawPrefix = prefixed?.[0] ?? "";
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
  const ref = parseRef(inner, { text, offset: at });
  const expr: Expr = { ref, text, offset: at };
  if (prefixed) expr[prefixed[1] as "raw" | "origin" | "host"] = true;
  if (sep !== -1) {
    const from = at + 2 + rawPrefix.length + sep + 2;
    expr.fallback = readFallback(source, { at, close, from, text, inner, ref });
  }
  if (expr.origin || expr.host) checkOrigin(expr);
  return { expr, end: close + 1 };
}

/** `${origin:…}` and `${host:…}` read a value that can be a URL, and a fallback that is one. */
function checkOrigin(expr: Expr): void {
  const part = expr.host ? "host" : "origin";
  const hint =
    `Write \${${part}:ENV.BASE_URL} or \${${part}:vars.base}: the ${part} of an http or https URL.`;
  if (!takesOrigin(expr.ref)) {
    throw new ExpressionSyntaxError(
      `"${part}:" cannot read "${expr.text}": it holds no URL.`,
      expr.offset,
      hint,
    );
  }
  if (expr.fallback !== undefined && originOf(expr.fallback) === undefined) {
    throw new ExpressionSyntaxError(
      `The fallback of "${expr.text}" is not an absolute http or https URL.`,
      expr.offset,
      hint,
    );
  }
}

/**
 * The text after `:-` (at `from`), which only a variable that may be unset
 * can have, and which holds no expression.
 */
function readFallback(
  source: string,
  e: { at: number; close: number; from: number; text: string; inner: string; ref: Ref },
): string {
  if (e.ref.kind !== "env" && e.ref.kind !== "name") {
    throw new ExpressionSyntaxError(
      `A fallback ":-" cannot follow "${e.inner}" in "${e.text}".`,
      e.at,
      "Fallbacks apply to variables that may be unset: ${ENV.NAME:-value} or ${NAME:-value}.",
    );
  }
  const fallback = source.slice(e.from, e.close);
  if (fallback.includes("${")) {
    throw new ExpressionSyntaxError(
      `A fallback cannot hold another expression: "${source.slice(e.at, e.close + 2)}".`,
      e.from,
      "Give a literal fallback (${ENV.A:-text}); to fall back on another variable, define a var from it and use ${vars.name}.",
    );
  }
  return fallback;
}

/**
 * Whether a template has no expressions (its single part is its text).
 *
 * @example
 * ```ts
 * import { isConstant, parseTemplate } from "./parse.ts";
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
 * import { compileValue, expressionsOf } from "./parse.ts";
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
      for (const [, item, key] of value.entries) {
        for (const p of key?.parts ?? []) {
          if (typeof p !== "string") yield { expr: p, template: key! };
        }
        yield* expressionsOf(item);
      }
      break;
  }
}

/**
 * Parses every string inside a plain value (from YAML) into a template;
 * subtrees without expressions stay constants so rendering them is free.
 * Throws {@linkcode ExpressionSyntaxError} from {@linkcode parseTemplate}.
 *
 * @example
 * ```ts
 * import { compileValue } from "./parse.ts";
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
