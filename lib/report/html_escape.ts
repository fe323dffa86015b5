/**
 * Escaping for the HTML report: text from the run (names, messages, bodies,
 * paths) goes into element content and quoted attributes only through it.
 *
 * @module
 */

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * Escapes text for HTML element content or a quoted attribute value.
 *
 * @example
 * ```ts
 * import { esc } from "./html_escape.ts";
 * if (esc(`<a href="x">`) !== "&lt;a href=&quot;x&quot;&gt;") throw new Error();
 * ```
 */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
