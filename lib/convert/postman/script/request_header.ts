/**
 * A header a pre-request script adds to its request, as collections add a
 * source or a correlation header: `pm.request.headers.add({ key: "X-Source",
 * value: "census" })`, `upsert`, `pm.request.addHeader(…)`. When its name is
 * text and its value text or Postman variables known before the request, the
 * step sends it (as Postman text, `{{name}}` for a variable, so it is
 * resolved as the request's own headers are); anything else stays a comment.
 *
 * @module
 */
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

/** The calls that add (or replace) a header of the request about to be sent. */
const ADDERS = new Set([
  "pm.request.headers.add",
  "pm.request.headers.upsert",
  "pm.request.addHeader",
]);

/**
 * A value as Postman text: a literal as it is, a variable as its placeholder, joined text of both.
 *
 * @example
 * ```ts
 * import { postmanText } from "./request_header.ts";
 * const t = postmanText({ k: "cat", parts: [{ k: "var", name: "base", expr: "" }, { k: "lit", value: "/x" }] });
 * if (t !== "{{base}}/x") throw new Error(t);
 * ```
 */
export function postmanText(
  s: Sym | undefined,
  part?: (s: Sym) => string | undefined,
): string | undefined {
  // A part of the response, when a test script's request reads it (response_send.ts).
  if ((s?.k === "path" || s?.k === "pick") && part) return part(s);
  if (s?.k === "lit") {
    return ["string", "number", "boolean"].includes(typeof s.value) ? String(s.value) : undefined;
  }
  if (s?.k === "var") return `{{${s.name}}}`;
  if (s?.k !== "cat") return undefined;
  const parts = s.parts.map((p) => postmanText(p, part));
  return parts.every((p) => p !== undefined) ? parts.join("") : undefined;
}

/**
 * `{ key, value }` of a header-adding call; `undefined` when it is one that
 * cannot be said; `null` when the call adds no header.
 *
 * @example
 * ```ts
 * import { addedHeader } from "./request_header.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('pm.request.headers.add({ key: "X-Id", value: "a-" + pm.environment.get("id") })');
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: (n: string) => ({ k: "var" as const, name: n, expr: "" }) };
 * const h = addedHeader(p.program.body[0].expression, ctx);
 * if (h?.key !== "X-Id" || h.value !== "a-{{id}}") throw new Error(JSON.stringify(h));
 * ```
 */
export function addedHeader(
  e: Node,
  ctx: EvalContext,
): { key: string; value: string } | undefined | null {
  const callee = e.type === "CallExpression" ? dotted(e.callee) : undefined;
  if (!callee || !ADDERS.has(callee)) return null;
  const [arg] = e.arguments;
  if (arg?.type !== "ObjectExpression") return undefined;
  const field = (name: string) => {
    const p = arg.properties.find((p: Node) =>
      p.type === "Property" && !p.computed && (p.key.name ?? p.key.value) === name
    );
    return p ? evaluate(p.value, ctx, 0) : undefined;
  };
  const key = field("key");
  const value = postmanText(field("value"));
  return key?.k === "lit" && typeof key.value === "string" && key.value !== "" &&
      value !== undefined
    ? { key: key.value, value }
    : undefined;
}
