/**
 * Whether a page value is a link rather than a value the server made up: a path or a URL is
 * something a fresh page repeats, not a token to read again.
 *
 * @module
 */

/**
 * Whether a value that starts like a URL's scheme is a token after a word (CSRF-magic's
 * `sid:<sha1>,<time>`): its rest holds a run of 16+ letters and digits, both, and no `/` or `@`,
 * as no link's (`javascript:void(0)`, `mailto:a@b.test`, `data:image/png;…`) does.
 */
function prefixedToken(value: string): boolean {
  const rest = value.slice(value.indexOf(":") + 1);
  if (/[/@]/.test(rest)) return false;
  return (rest.match(/[A-Za-z0-9]{16,}/g) ?? []).some((run) =>
    /\d/.test(run) && /[a-z]/i.test(run)
  );
}

/**
 * Whether `value` is a path or a URL (a scheme's word and a colon), not a token written after a
 * word and a colon.
 *
 * @example
 * ```ts
 * import { linkShaped } from "./link_shaped.ts";
 * if (!linkShaped("/dashboard") || !linkShaped("mailto:a@b.test")) throw new Error();
 * if (linkShaped("sid:4f1c9a2e7b3d4f1c9a2e7b3d,1700000000") || linkShaped("448664:180196")) {
 *   throw new Error();
 * }
 * ```
 */
export function linkShaped(value: string): boolean {
  return value.startsWith("/") || (/^[a-z][a-z0-9+.-]*:/i.test(value) && !prefixedToken(value));
}
