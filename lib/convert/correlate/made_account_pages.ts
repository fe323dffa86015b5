/**
 * The pages of accounts the journey made: a request that sends a password
 * the run chooses (chosen_passwords.ts) makes an account, and the other
 * values it sends (`newusername=wren`) name it. A later request whose
 * address names that account (`/admin/user/wren/`, `?user=wren`) acts on
 * the account the run made, not on one the user knows: a new password it
 * sends, even in a plain text box (ejabberd's web admin declares its
 * "Change Password" box `type="text"`), is the run's to choose too.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { bodyFields } from "./body_fields.ts";

/** Shorter values (`y`, `on`) name no account: a box's flag, not a name. */
const SHORTEST = 3;

/**
 * The values `r` sends beside the passwords in `chosen`: the names of the
 * account it made (none when it sends no chosen password).
 *
 * @example
 * ```ts
 * import { madeAccountNames } from "./made_account_pages.ts";
 * const add = { bodyMime: "application/x-www-form-urlencoded", url: new URL("http://a.test/users/"),
 *   bodyText: "newusername=wren&newuserpassword=Tide-Lantern-58", headers: [] };
 * // deno-lint-ignore no-explicit-any
 * const names = madeAccountNames(add as any, new Set(["Tide-Lantern-58"]));
 * if (names.join() !== "wren") throw new Error(names.join());
 * ```
 */
export function madeAccountNames(r: HarRecord, chosen: ReadonlySet<string>): string[] {
  const values = bodyFields(r).map(([, v]) => v);
  if (!values.some((v) => chosen.has(v))) return [];
  return values.filter((v) => !chosen.has(v) && v.length >= SHORTEST);
}

/**
 * Whether `r`'s address names one of the accounts `made`: a segment of its
 * path or a value of its query is one of their names.
 *
 * @example
 * ```ts
 * import { namesMadeAccount } from "./made_account_pages.ts";
 * const made = new Set(["wren"]);
 * // deno-lint-ignore no-explicit-any
 * if (!namesMadeAccount({ url: new URL("http://a.test/admin/user/wren/") } as any, made)) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (namesMadeAccount({ url: new URL("http://a.test/admin/user/ada/") } as any, made)) throw new Error();
 * ```
 */
export function namesMadeAccount(r: HarRecord, made: ReadonlySet<string>): boolean {
  if (made.size === 0) return false;
  const segments = r.url.pathname.split("/").map(safeDecode);
  return [...segments, ...r.url.searchParams.values()].some((part) => made.has(part));
}

/** `part` URL-decoded, or as it is when it is no valid escape. */
function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
