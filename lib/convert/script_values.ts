/**
 * Values of a page's inline scripts that its other scripts may send back: JSON config and script
 * variables, each with a pattern that finds it again in a fresh copy of the page.
 *
 * @module
 */

import { embedded, type PageValue, secretName } from "./page_value.ts";
import { escapeRegExpSlash as escape } from "../_util/regex_escape.ts";

/**
 * String values of inline scripts: JSON config (`{"sessionKey":"sk_…"}`) and
 * script variables (`window.csrf = "…"`, `apiKey: '…'`). A value written
 * with escapes (`"csrfToken":"4f9a+\\\\"`) is the value they stand for,
 * its `raw` text what the page's pattern finds.
 *
 * @example
 * ```ts
 * import { scriptValues } from "./script_values.ts";
 * import type { PageValue } from "./page_value.ts";
 * const out: PageValue[] = [];
 * scriptValues('<script>window.csrf = "4f9a8b7c6d5e";</script>', out);
 * if (out[0]?.value !== "4f9a8b7c6d5e") throw new Error(JSON.stringify(out));
 * ```
 */
export function scriptValues(html: string, out: PageValue[]): void {
  for (const script of html.matchAll(/<script\b([^>]{0,500})>([\s\S]{0,200000}?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(script[1])) continue;
    const body = script[2];
    wholeString(script[1], body, out);
    for (
      const m of body.matchAll(
        /(["']?)([A-Za-z_$][\w$-]{0,60})\1\s*([:=])\s*(["'])((?:[^"'\\\n]|\\[^\n]){1,400}?)\4/g,
      )
    ) {
      const [, keyQuote, name, sign, quote, written] = m;
      const value = literal(written);
      if (value === undefined || !embedded(name, value, 6)) continue;
      const key = keyQuote ? `${keyQuote}${escape(name)}${keyQuote}` : `\\b${escape(name)}`;
      const inside = written === value ? `[^${quote}]*` : `(?:[^${quote}\\\\]|\\\\.)*`;
      const plain = `${key}\\s*${sign}\\s*${quote}(${inside})${quote}`;
      const pattern = new RegExp(plain).exec(html)?.[1] === written
        ? plain
        : `${holder(body.slice(0, m.index))}${plain}`;
      const raw = written === value ? {} : { raw: written };
      out.push({ name, value, pattern, secret: secretName(name), ...raw });
    }
  }
}

/**
 * A script whose whole body is one JSON string (`<script id="csrf" type="application/json">"…"
 * </script>`, Parse Dashboard's login page): its value, named by the script's `id`.
 */
function wholeString(attributes: string, body: string, out: PageValue[]): void {
  const id = /\bid\s*=\s*["']([\w-]{1,60})["']/i.exec(attributes)?.[1];
  // Escaped text is left to the key-value reading, which turns escapes back.
  const value = /^\s*"([^"\\\n]{1,400})"\s*$/.exec(body)?.[1];
  if (!id || value === undefined || !embedded(id, value, 6)) return;
  const pattern = `<script\\b[^>]*\\bid\\s*=\\s*["']${escape(id)}["'][^>]*>\\s*"([^"]*)"`;
  out.push({ name: id, value, pattern, secret: secretName(id) });
}

/** A script string's text with its escapes undone, or `undefined` when they are not plain ones. */
function literal(written: string): string | undefined {
  if (!written.includes("\\")) return written;
  try {
    return JSON.parse(`"${written.replace(/\\'/g, "'")}"`);
  } catch {
    return undefined;
  }
}

/**
 * The pattern of the object or call that holds a script value, when an
 * earlier value of the page has the same key (WordPress prints one
 * `"nonce"` per script's settings: `var communityEventsData = {"nonce":…}`):
 * the nearest `name =` or `name(` before it and anything up to the key.
 */
function holder(before: string): string {
  const heads = [...before.matchAll(/([A-Za-z_$][\w$.]{2,60})\s*(=(?!=)|\()/g)];
  const head = heads.at(-1);
  return head ? `${escape(head[1])}\\s*${escape(head[2])}[\\s\\S]*?` : "";
}
