/**
 * A link that acts: a GET (or HEAD) that sent a query and was answered with a
 * redirect. A server-rendered admin often acts by links rather than forms:
 * Supervisor's status page stops a program with
 * `index.html?processname=reports&action=stop`, answered `301` to
 * `/?message=Process reports stopped`; Request Tracker's Delete is
 * `Update.html?Status=deleted&SubmitTicket=1&id=1`, answered `302`. A read
 * answered 200, or a redirect of a path alone (`/` to `/login`), is no such
 * link.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";

/**
 * Whether `r` is a safe request that acts: a query sent, a redirect answered.
 *
 * @example
 * ```ts
 * import { actingGet } from "./acting_get.ts";
 * const link = { method: "GET", url: new URL("http://a.test/index.html?processname=mail&action=stop"), status: 301 };
 * // deno-lint-ignore no-explicit-any
 * if (!actingGet(link as any) || actingGet({ ...link, status: 200 } as any)) throw new Error();
 * ```
 */
export function actingGet(r: HarRecord): boolean {
  if (r.method !== "GET" && r.method !== "HEAD") return false;
  return r.url.search !== "" && r.status !== undefined && r.status >= 300 && r.status < 400;
}
