/**
 * A request's `headers` and `cookies`: names that are HTTP tokens and values
 * an HTTP header line can carry, checked before anything is sent.
 *
 * @module
 */
import type { Scalar } from "yaml";
import { isMap, isScalar } from "./nodes.ts";
import { lossyNumber, quoteHint } from "./quote_hint.ts";
import { parseTemplate, type Template } from "../expr/template.ts";
import type { RequestSpec } from "../model/flow.ts";
import type { Loading } from "./context.ts";
import { describe, isEmpty } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { METHOD } from "./spelling.ts";
import { refuseExpression } from "./not_allowed.ts";

/** A header or cookie value: a template, or a number or boolean taken as its text (no `${…}`). */
function valueTemplate(
  ctx: Loading,
  node: Scalar,
  owner: TemplateUse["owner"],
): Template | undefined {
  return typeof node.value === "string"
    ? ctx.template(node, owner)
    : parseTemplate(String(node.value).replaceAll("${", "$${"));
}

/** Why a header value cannot be sent (a line break, NUL or a character past Latin-1), reported; whether it was. */
function badHeaderValue(ctx: Loading, h: Entry, value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (/[\r\n\0]/.test(value)) {
    ctx.problem(
      "bad-header",
      `The value of header "${h.key}" holds a line break or NUL, which HTTP forbids.`,
      h.value,
      "Put it on one line (a YAML block scalar with | keeps line breaks; use a quoted string).",
    );
    return true;
  }
  const wide = /[\u0100-\u{10ffff}]/u.exec(value);
  if (!wide) return false;
  const code = wide[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  ctx.problem(
    "bad-header",
    `The value of header "${h.key}" holds "${
      wide[0]
    }" (U+${code}), which an HTTP header value cannot carry.`,
    h.value,
    "Header values are Latin-1 text: percent-encode it (e.g. encodeURIComponent) or send it in the body.",
    wide.index,
    wide[0].length,
  );
  return true;
}

/**
 * A header name's template when it holds `${…}` (an instance's own header,
 * `x-csrf-token-${steps.home.capture.device}`), checked when the request is
 * made; `undefined` for a plain name, or after a problem (a bad expression).
 */
function nameTemplate(
  ctx: Loading,
  h: Entry,
  owner: TemplateUse["owner"],
): Template | undefined | false {
  if (!h.key.includes("${") || !isScalar(h.keyNode)) return undefined;
  const template = ctx.template(h.keyNode as Scalar, owner);
  if (!template) return false;
  return template.parts.some((part) => typeof part !== "string") ? template : undefined;
}

/** One header's problem (its name, a repeat, its value), reported; whether there was one. */
function badHeader(
  ctx: Loading,
  h: Entry,
  label: string,
  seen: Map<string, string>,
  named: boolean,
): boolean {
  const lower = h.key.toLowerCase();
  // A name's expression is checked when it is made; its written parts must be a token's.
  const written = named ? h.key.replace(/\$\{[^}]*\}/g, "x") : h.key;
  if (!METHOD.test(written)) {
    const token = h.key.replace(/[^!#$%&'*+.^_`|~0-9A-Za-z-]+/g, "-").replace(/^-+|-+$/g, "");
    ctx.problem(
      "bad-header",
      `"${h.key}" is not a valid header name.`,
      h.keyNode,
      token
        ? `A header name holds no spaces, ":" or other separators: write "${token}".`
        : "A header name is letters, digits and -, e.g. x-request-id.",
    );
    return true;
  }
  if (seen.has(lower)) {
    ctx.problem(
      "duplicate-header",
      `Header "${h.key}" is set twice in ${label} (also as "${seen.get(lower)}").`,
      h.keyNode,
      "Header names are case-insensitive; keep one.",
    );
    return true;
  }
  seen.set(lower, h.key);
  if (!isScalar(h.value) || h.value.value === null) {
    ctx.problem(
      "wrong-type",
      `Expected header "${h.key}" to be a string, got ${describe(h.value)}.`,
      h.value ?? h.keyNode,
      quoteHint(ctx, h.value, h.key) ??
        `Write its value, e.g. ${h.key}: "text"; an empty value is written "".`,
    );
    return true;
  }
  if (lossyNumber(ctx, h, `Header "${h.key}"`)) return true;
  return badHeaderValue(ctx, h, h.value.value);
}

/**
 * `headers: {accept: application/json}`: each header once (names are
 * case-insensitive), its value one line of Latin-1 text.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", headers: {A: 1, a: 2}}\n',
 *   "f.yaml",
 * );
 * if (problems[0]?.code !== "duplicate-header") throw new Error(problems[0]?.message);
 * ```
 */
export function loadHeaders(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): RequestSpec["headers"] {
  if (!entry || isEmpty(entry.value)) return [];
  if (!isMap(entry.value)) {
    ctx.problem(
      "wrong-type",
      `Expected the headers of ${label} to be a map, got ${describe(entry.value)}.`,
      entry.value,
      "Write one header per line under it, e.g. headers: {accept: application/json}.",
    );
    return [];
  }
  const headers: RequestSpec["headers"] = [];
  const seen = new Map<string, string>();
  for (const h of ctx.entries(entry.value)) {
    const named = nameTemplate(ctx, h, owner);
    if (named === false || badHeader(ctx, h, label, seen, named !== undefined)) continue;
    const template = valueTemplate(ctx, h.value as Scalar, owner);
    if (template) headers.push(named ? [h.key, template, named] : [h.key, template]);
  }
  return headers;
}

/**
 * `cookies: {sid: "${steps.login.capture.sid}"}`: cookies sent in the `cookie` header.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", cookies: {theme: dark}}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[0].request?.cookies?.[0][0] !== "theme") throw new Error();
 * ```
 */
export function loadCookies(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): [string, Template][] {
  if (!entry || isEmpty(entry.value)) return [];
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected the cookies of ${label} to be a map of names to values, got ${describe(node)}.`,
      node ?? entry.keyNode,
      'For example: cookies: {sid: "${steps.login.capture.sid}"}',
    );
    return [];
  }
  const out: [string, Template][] = [];
  for (const e of ctx.entries(node)) {
    if (refuseExpression(ctx, e.keyNode, `A cookie name of ${label}`)) continue;
    const v = ctx.deref(e.value);
    if (!METHOD.test(e.key) || !isScalar(v) || v.value === null) {
      ctx.problem(
        "wrong-type",
        `Expected cookie "${e.key}" of ${label} to be a name with a text value, got ${
          describe(v)
        }.`,
        v ?? e.keyNode,
        "Cookie names are HTTP tokens; values are text, e.g. cookies: {theme: dark}.",
      );
      continue;
    }
    const template = valueTemplate(ctx, v, owner);
    if (template) out.push([e.key, template]);
  }
  return out;
}
