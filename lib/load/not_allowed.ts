/**
 * An expression where a value is read as the flow loads (a timeout, a
 * switch, a count, a file path, a multipart part's filename): refused with
 * its position, so no `${…}` is sent or used as written.
 *
 * @module
 */
import type { Node } from "yaml";
import { isScalar } from "./nodes.ts";
import type { Entry } from "./entry.ts";

/** Where the problem is reported (a `Loading`): at `offset` characters into a scalar. */
export interface OffsetSink {
  problem(
    code: string,
    message: string,
    node: Node | null | undefined,
    hint?: string,
    offset?: number,
    length?: number,
  ): void;
}

/** Where the fields that do expand expressions are listed. */
export const WHERE_ALLOWED =
  "Expressions are expanded in url, headers, form and multipart fields (names and values), body (values and keys), vars, data rows, status, " +
  'outputs, "with" and expected values (docs/expressions.md, "Where expressions are allowed").';

/** The hint of the expressions refused while a part is read (see {@linkcode refusingWith}). */
const HINTS = new WeakMap<OffsetSink, string>();

/**
 * Runs `read` with `hint` as the hint of every expression it refuses: a
 * part where no key takes one (`options`) says so and what to do instead.
 *
 * @example
 * ```ts
 * import { refuseExpression, refusingWith } from "./not_allowed.ts";
 * import { Loading } from "./context.ts";
 * import { parseDocument } from "yaml";
 * const ctx = new Loading("f.yaml", {});
 * ctx.doc = parseDocument('"${vars.t}"');
 * refusingWith(ctx, "No option takes one.", () => refuseExpression(ctx, ctx.doc.contents, '"timeout"'));
 * if (ctx.problems[0].hint !== "No option takes one.") throw new Error();
 * ```
 */
export function refusingWith<T>(ctx: OffsetSink, hint: string, read: () => T): T {
  const before = HINTS.get(ctx);
  HINTS.set(ctx, hint);
  try {
    return read();
  } finally {
    if (before === undefined) HINTS.delete(ctx);
    else HINTS.set(ctx, before);
  }
}

/**
 * The first `${…}` of a text that is not the `$${` escape: its offset and
 * length (to its `}`, or the rest of the text).
 *
 * @example
 * ```ts
 * import { firstExpression } from "./not_allowed.ts";
 * if (firstExpression("a ${vars.t} b")?.length !== 9 || firstExpression("$${x}") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function firstExpression(text: string): { index: number; length: number } | undefined {
  for (let i = text.indexOf("${"); i >= 0; i = text.indexOf("${", i + 2)) {
    if (text[i - 1] === "$") continue;
    const end = text.indexOf("}", i);
    return { index: i, length: (end < 0 ? text.length : end + 1) - i };
  }
  return undefined;
}

/**
 * Reports an expression in a scalar read as the flow loads; whether there was one.
 *
 * @example
 * ```ts
 * import { refuseExpression } from "./not_allowed.ts";
 * import { Loading } from "./context.ts";
 * import { parseDocument } from "yaml";
 * const ctx = new Loading("f.yaml", {});
 * ctx.doc = parseDocument('"${vars.t}"');
 * if (!refuseExpression(ctx, ctx.doc.contents, '"timeout"')) throw new Error();
 * if (ctx.problems[0].code !== "expression-not-allowed") throw new Error();
 * ```
 */
export function refuseExpression(ctx: OffsetSink, node: unknown, what: string): boolean {
  if (!isScalar(node) || typeof node.value !== "string") return false;
  const found = firstExpression(node.value);
  if (!found) return false;
  const text = node.value.slice(found.index, found.index + found.length);
  ctx.problem(
    "expression-not-allowed",
    `${what} cannot hold an expression ("${text}"): it is read when the flow loads, not expanded.`,
    node,
    HINTS.get(ctx) ?? `Write the value itself here. ${WHERE_ALLOWED}`,
    found.index,
    found.length,
  );
  return true;
}

/**
 * A non-empty string read as the flow loads (a path, a name sent as
 * written): `ctx.string`, but an expression in it is refused.
 *
 * @example
 * ```ts
 * import { plainString } from "./not_allowed.ts";
 * import { Loading } from "./context.ts";
 * import { parseDocument } from "yaml";
 * const ctx = new Loading("f.yaml", {});
 * ctx.doc = parseDocument('"${vars.file}"');
 * const entry = { key: "body_file", keyNode: ctx.doc.contents, value: ctx.doc.contents };
 * // deno-lint-ignore no-explicit-any
 * if (plainString(ctx, entry as any, '"body_file"') !== undefined || ctx.problems.length !== 1) throw new Error();
 * ```
 */
export function plainString(
  ctx: OffsetSink & { string(entry: Entry | undefined, what: string): string | undefined },
  entry: Entry | undefined,
  what: string,
): string | undefined {
  return entry && refuseExpression(ctx, entry.value, what) ? undefined : ctx.string(entry, what);
}
