/**
 * Form fields the user types a password into, by the page's own word: a
 * recorded page whose form holds `<input type="password" name="p">` says
 * that what a later request sends as `p` is a credential, whatever the
 * field is called (DokuWiki's login form posts `u` and `p`). A request that
 * sends one is a login, and the value is asked of the user, never written.
 * A page's script may fetch its forms as HTML fragments of another type
 * (RabbitMQ's `users.ejs`, `application/octet-stream`): a text answer that
 * begins with a tag is read as well.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody } from "../json.ts";

/**
 * The names of the password inputs of the recorded pages of `records`.
 *
 * @example
 * ```ts
 * import { passwordFields } from "./password_fields.ts";
 * const page = { mimeType: "text/html", responseText: '<input type="password" name="p" id="f">' };
 * // deno-lint-ignore no-explicit-any
 * if (!passwordFields([page] as any).has("p")) throw new Error();
 * ```
 */
export function passwordFields(records: readonly HarRecord[]): Set<string> {
  const names = new Set<string>();
  for (const r of records) {
    if (r.responseText === undefined || !isMarkup(r)) continue;
    for (const tag of r.responseText.matchAll(/<input\b[^>]{0,2000}>/gi)) {
      const attr = (name: string) =>
        new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(tag[0]);
      const type = attr("type");
      const name = attr("name");
      if (!type || !name || (type[1] ?? type[2] ?? type[3]).toLowerCase() !== "password") continue;
      names.add(name[1] ?? name[2] ?? name[3]);
    }
  }
  return names;
}

/**
 * Whether `r` answered an HTML page, or a fragment a script fetched under a type that says
 * nothing (begins with a tag).
 *
 * @example
 * ```ts
 * import { isMarkup } from "./password_fields.ts";
 * // deno-lint-ignore no-explicit-any
 * if (!isMarkup({ mimeType: "", responseText: "<form></form>" } as any)) throw new Error();
 * ```
 */
export function isMarkup(r: HarRecord): boolean {
  if (/html/.test(r.mimeType)) return true;
  const vague = r.mimeType === "" || r.mimeType === "application/octet-stream" ||
    r.mimeType === "text/plain";
  return vague && /^\s*<[a-z]/i.test(r.responseText ?? "");
}

/**
 * Whether `r` sends a non-empty value in one of `fields` (a urlencoded or a
 * JSON body's top-level field).
 *
 * @example
 * ```ts
 * import { sendsPassword } from "./password_fields.ts";
 * const r = { method: "POST", headers: [], bodyText: "u=ann&p=typed-secret" };
 * // deno-lint-ignore no-explicit-any
 * if (!sendsPassword(new Set(["p"]), r as any)) throw new Error();
 * ```
 */
export function sendsPassword(fields: ReadonlySet<string>, r: HarRecord): boolean {
  if (fields.size === 0 || !r.bodyText) return false;
  let keys: [string, unknown][];
  try {
    const json = parseBody(r.bodyText);
    keys = json !== null && typeof json === "object" ? Object.entries(json) : [];
  } catch {
    keys = [...new URLSearchParams(r.bodyText)];
  }
  return keys.some(([k, v]) => fields.has(k) && typeof v === "string" && v !== "");
}
