/**
 * The `Origin` header a browser sends. Every browser sends `Origin` on a
 * POST, PUT, PATCH or DELETE, and a server whose credential is a cookie may
 * refuse an unsafe request without its own origin, as a CSRF defence
 * (better-auth answers 403 `MISSING_OR_NULL_ORIGIN`). So a step whose
 * credential is a cookie (the session a cookie-signing login sets, or a
 * scheme `in: cookie`) sends the origin of `BASE_URL`, as
 * `${origin:ENV.BASE_URL}`: right on any host, and harmless to a server
 * that ignores it (a same-origin `Origin` passes any CORS check). A GET
 * sends none, as a browser's same-origin GET does not.
 *
 * @module
 */
import type { YMap } from "../yaml_out.ts";
import { insertMap, mapAt, valueAt } from "../yaml_tree.ts";
import type { StepAuth } from "./auth.ts";

/** The origin of the base URL the steps are under. */
export const BASE_ORIGIN = "${origin:ENV.BASE_URL}";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether a step's credential is a cookie: some scheme it sends goes in one.
 *
 * @example
 * ```ts
 * import { sendsCookie } from "./browser_origin.ts";
 * if (!sendsCookie({ places: new Map([["cookie sid", "s"]]) } as never)) throw new Error();
 * if (sendsCookie({ places: new Map([["header authorization", "jwt"]]) } as never)) throw new Error();
 * ```
 */
export function sendsCookie(auth: StepAuth): boolean {
  return [...auth.places.keys()].some((place) => place.startsWith("cookie "));
}

/**
 * Adds `Origin` of the base URL to `step`'s request when it is unsafe and
 * sends no `Origin` of its own (a header parameter the document names).
 *
 * @example
 * ```ts
 * import { withBaseOrigin } from "./browser_origin.ts";
 * import { ymap } from "../yaml_out.ts";
 * const step = ymap([["name", "a"], ["request", ymap([["method", "POST"], ["url", "u"]])]]);
 * withBaseOrigin(step);
 * if (!JSON.stringify(step).includes('"Origin","${origin:ENV.BASE_URL}"')) throw new Error();
 * const get = ymap([["request", ymap([["method", "GET"], ["url", "u"]])]]);
 * withBaseOrigin(get);
 * if (JSON.stringify(get).includes("Origin")) throw new Error();
 * ```
 */
export function withBaseOrigin(step: YMap): void {
  const request = mapAt(step, "request");
  if (!request || !UNSAFE.has(String(valueAt(request, "method")))) return;
  const headers = mapAt(request, "headers") ?? insertMap(request, "headers", ["url", "query"]);
  if (headers.entries.some(([k]) => k.toLowerCase() === "origin")) return;
  headers.entries.push(["Origin", BASE_ORIGIN]);
}
