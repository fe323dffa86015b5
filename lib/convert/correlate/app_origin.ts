/**
 * Which recorded origin is `BASE_URL`. Origins are named in the order steps first use them, so a
 * recording that starts at a sign-in service of its own origin named that service `BASE_URL` and
 * the app `BASE_URL_2`: `--verify URL` and a user setting `BASE_URL` then pointed the sign-in at
 * the app. The app is where the browser first loaded a page (the address the user typed), when
 * steps go there; else the origin most steps go to. It is named first, the others as before.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { baseRef } from "./rewrite_value.ts";
import type { Correlator } from "./state.ts";

/**
 * Names the app's origin `BASE_URL` when another origin's step comes first: the first page's
 * origin (`c.pages`, every page the recording loaded) when a step goes there, else the origin most
 * of the `kept` requests go to. A recording whose first step goes to the app names its origins in order.
 *
 * @example
 * ```ts
 * import { nameAppOrigin } from "./app_origin.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const at = (href: string) => ({ url: new URL(href) });
 * // deno-lint-ignore no-explicit-any
 * nameAppOrigin(c, [at("http://auth.test/session"), at("http://app.test/a"), at("http://app.test/b")] as any);
 * if (c.origins.get("http://app.test") !== "${vars.base_url}") throw new Error();
 * ```
 */
export function nameAppOrigin(c: Correlator, kept: readonly HarRecord[]): void {
  const counts = new Map<string, number>();
  for (const { url } of kept) {
    if (/^https?:$/.test(url.protocol)) counts.set(url.origin, (counts.get(url.origin) ?? 0) + 1);
  }
  const [first] = counts.keys();
  let busiest = first;
  for (const [origin, n] of counts) if (n > counts.get(busiest)!) busiest = origin;
  const page = c.pages[0]?.url.origin;
  const app = page !== undefined && counts.has(page) ? page : busiest;
  if (app !== first) baseRef(c, app);
}
