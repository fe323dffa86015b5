/**
 * `--verify`'s edits of a step's request: a recorded value still written in
 * a template (as literal text, percent-encoded in the URL, or as the
 * recorded value of a variable the conversion made for it) is replaced by a
 * reference to a capture. Only literal text is touched, never an expression.
 *
 * @module
 */
import type { Step } from "./model.ts";
import type { YNode } from "./yaml_out.ts";

/** A template split into literal text and `${…}` expressions (`$${` stays literal). */
type Piece = { literal: string } | { expression: string };

/**
 * Splits a template into literal pieces and expressions.
 *
 * @example
 * ```ts
 * import { pieces } from "./verify_template.ts";
 * const p = pieces("a $${b} ${ENV.X} c");
 * if (p.length !== 3 || (p[1] as { expression: string }).expression !== "${ENV.X}") {
 *   throw new Error(JSON.stringify(p));
 * }
 * ```
 */
export function pieces(template: string): Piece[] {
  const out: Piece[] = [];
  let literal = "";
  for (let i = 0; i < template.length;) {
    if (template.startsWith("$${", i)) {
      literal += "$${";
      i += 3;
      continue;
    }
    if (template.startsWith("${", i)) {
      const close = template.indexOf("}", i);
      if (close === -1) break;
      if (literal) out.push({ literal });
      literal = "";
      out.push({ expression: template.slice(i, close + 1) });
      i = close + 1;
      continue;
    }
    literal += template[i++];
  }
  if (literal) out.push({ literal });
  return out;
}

const WORD = /[A-Za-z0-9_]/;
const ALNUM = /[A-Za-z0-9]/;

/**
 * Replaces `value` where it stands whole (not inside a longer word) in
 * literal text. An id (a value with a digit) ends at `_` too: `<id>_thumb`
 * holds it; a word does not (`user` in `user_name` is another word).
 */
function replaceWhole(text: string, value: string, ref: string): [string, number] {
  let out = "";
  let count = 0;
  let at = 0;
  const word = /\d/.test(value) ? ALNUM : WORD;
  for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + 1)) {
    if (i < at) continue;
    const before = text[i - 1] ?? "";
    const after = text[i + value.length] ?? "";
    if (word.test(before) || word.test(after)) continue;
    out += text.slice(at, i) + ref;
    at = i + value.length;
    count++;
  }
  return [out + text.slice(at), count];
}

/** What {@linkcode substitute} needs besides the step. */
export interface Substitution {
  /** The recorded value. */
  value: string;
  /** The capture reference sent in its place (`${steps.login.capture.token}`). */
  ref: string;
  /** The same reference inserted into a URL as written (`${raw:…}`). */
  rawRef: string;
  /** Recorded values of the variables the conversion made, by the expression that reads them. */
  variables: ReadonlyMap<string, string>;
  /** Writes text as a literal of a template. */
  lit: (text: string) => string;
  /** Only in the Cookie header, or everywhere else (default: everywhere). */
  where?: "cookie" | "other";
}

/** The template with `s.value` replaced; a variable whose recorded value held it is spelled out. */
function inTemplate(template: string, s: Substitution, url: boolean): [string, number] {
  let total = 0;
  const out = pieces(template).map((piece) => {
    if ("expression" in piece) {
      const recorded = s.variables.get(piece.expression);
      if (recorded === undefined) return piece.expression;
      const [text, n] = replaceWhole(s.lit(recorded), s.lit(s.value), s.ref);
      total += n;
      return n > 0 ? text : piece.expression;
    }
    let [text, n] = replaceWhole(piece.literal, s.lit(s.value), url ? urlRef(s) : s.ref);
    const encoded = encodeURIComponent(s.value);
    if (url && encoded !== s.value) {
      const [again, m] = replaceWhole(text, s.lit(encoded), s.ref);
      text = again;
      n += m;
    }
    total += n;
    return text;
  });
  return [out.join(""), total];
}

/** In a URL, a value that encoding would change (a path, a query) is inserted as written. */
const urlRef = (s: Substitution) => encodeURIComponent(s.value) === s.value ? s.ref : s.rawRef;

function inNode(node: YNode, s: Substitution): [YNode, number] {
  if (typeof node === "string") {
    if (node === s.lit(s.value)) return [s.ref, 1];
    return inTemplate(node, s, false);
  }
  if (typeof node === "number") return String(node) === s.value ? [s.ref, 1] : [node, 0];
  if (Array.isArray(node)) {
    let total = 0;
    const out = node.map((item) => {
      const [v, n] = inNode(item, s);
      total += n;
      return v;
    });
    return [out, total];
  }
  if (node !== null && typeof node === "object" && node.kind === "map") {
    let total = 0;
    const entries = node.entries.map(([k, v]): [string, YNode] => {
      const [w, n] = inNode(v, s);
      total += n;
      return [k, w];
    });
    return [{ kind: "map", entries }, total];
  }
  // Flow maps (a multipart file's spec) and other scalars hold no request value.
  return [node, 0];
}

/**
 * Replaces a recorded value everywhere the step's request still writes it;
 * returns how many places changed.
 *
 * @example
 * ```ts
 * import { substitute } from "./verify_template.ts";
 * // deno-lint-ignore no-explicit-any
 * const step: any = { url: "${vars.base_url}/items/itm_123abc", headers: [["authorization", "Bearer ${ENV.API_TOKEN}"]], checks: [] };
 * const n = substitute(step, {
 *   value: "itm_123abc", ref: "${steps.a.capture.id}", rawRef: "${raw:steps.a.capture.id}",
 *   variables: new Map(), lit: (t) => t,
 * });
 * if (n !== 1 || step.url !== "${vars.base_url}/items/${steps.a.capture.id}") throw new Error(step.url);
 * substitute(step, {
 *   value: "tok_1", ref: "${steps.login.capture.token}", rawRef: "",
 *   variables: new Map([["${ENV.API_TOKEN}", "tok_1"]]), lit: (t) => t,
 * });
 * if (step.headers[0][1] !== "Bearer ${steps.login.capture.token}") throw new Error(step.headers[0][1]);
 * ```
 */
export function substitute(step: Step, s: Substitution): number {
  if (s.value.includes("${")) return 0;
  let total = 0;
  step.headers = step.headers.map(([name, value]) => {
    const cookie = name.toLowerCase() === "cookie";
    if ((s.where === "cookie" && !cookie) || (s.where === "other" && cookie)) return [name, value];
    const [v, m] = inTemplate(value, s, false);
    total += m;
    return [name, v];
  });
  if (s.where === "cookie") return total;
  const [url, n] = inTemplate(step.url, s, true);
  step.url = url;
  total += n;
  // An `equals` on a value the request sent expects what is sent now.
  for (const check of step.checks) {
    if (check.op === "equals" && check.value !== null && String(check.value) === s.value) {
      check.value = s.ref;
      total++;
    }
  }
  for (const part of ["body", "form", "multipart"] as const) {
    const node = step[part];
    if (node === undefined) continue;
    const [v, m] = inNode(node, s);
    step[part] = v;
    total += m;
  }
  return total;
}

/** The request parts of a step, to put back when a tried repair does not make it pass. */
export type RequestParts = Pick<Step, "url" | "headers" | "body" | "form" | "multipart" | "checks">;

/**
 * A copy of the step's request parts (templates are immutable strings and
 * fresh nodes).
 *
 * @example
 * ```ts
 * import { requestParts } from "./verify_template.ts";
 * const step = { url: "u", headers: [["a", "1"]], checks: [{ path: ["x"], op: "type", value: "string" }] };
 * // deno-lint-ignore no-explicit-any
 * const parts = requestParts(step as any);
 * step.headers[0][1] = "2";
 * if (parts.headers[0][1] !== "1" || parts.url !== "u") throw new Error();
 * ```
 */
export function requestParts(step: Step): RequestParts {
  return {
    url: step.url,
    headers: step.headers.map(([n, v]) => [n, v]),
    body: step.body,
    form: step.form,
    multipart: step.multipart,
    checks: step.checks.map((k) => ({ ...k })),
  };
}
