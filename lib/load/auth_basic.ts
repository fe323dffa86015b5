/**
 * `basic`'s `header` and `scheme`: where RFC 7617's credentials go when a
 * page sends them in a header of its own (`X-Authorization: Basic …`, so the
 * browser's login prompt never shows) or without the word `Basic` (bare
 * base64 in a token header), so a flow asks for the user's password and
 * builds the header instead of asking for the base64 of `user:password`.
 *
 * @module
 */
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";
import { isScalar } from "./nodes.ts";

/** An HTTP token (RFC 9110 §5.6.2): a header's name, or the word before credentials. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The `header` and `scheme` of a `basic` block, those written; `null` when one is not a
 * word (the problem told).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nauth: {basic: {username: ada, password: "${ENV.PW}", header: X-Authorization, scheme: ""}}\n' +
 *     'steps:\n  - name: s\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 *   { env: () => "pw" },
 * );
 * const auth = flow?.auth as { header?: string; scheme?: string } | undefined;
 * if (auth?.header !== "X-Authorization" || auth.scheme !== "") throw new Error();
 * ```
 */
export function basicPlace(
  ctx: Loading,
  map: Map<string, Entry>,
  what: string,
): { header?: string; scheme?: string } | null {
  const header = word(ctx, map.get("header"), `"header" of ${what}`, false);
  const scheme = word(ctx, map.get("scheme"), `"scheme" of ${what}`, true);
  if (header === null || scheme === null) return null;
  return {
    ...(header === undefined ? {} : { header }),
    ...(scheme === undefined ? {} : { scheme }),
  };
}

/** One word (empty too when `empty`), `undefined` when not written, `null` when wrong. */
function word(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
  empty: boolean,
): string | null | undefined {
  if (!entry) return undefined;
  const node = ctx.deref(entry.value);
  if (isScalar(node) && typeof node.value === "string") {
    if (TOKEN.test(node.value) || (empty && node.value === "")) return node.value;
  }
  ctx.problem(
    "wrong-type",
    `Expected ${what} to be one word (an HTTP token, no space), got ${describe(node)}.`,
    node ?? entry.keyNode,
    empty
      ? 'Write the word the server wants before the base64: scheme: Basic (the default), or scheme: "" for none.'
      : "Write the header's name: header: X-Authorization (the default is Authorization).",
  );
  return null;
}
