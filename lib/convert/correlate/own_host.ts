/**
 * The instance's own address written without a scheme: a URL shortener's
 * create form sends `domain=127.0.0.1:3701`, the host and port the page was
 * served from, and refuses a host it does not serve. Sent as recorded, a run
 * on an instance at another address is refused. A whole value equal to the
 * host (and port) of the origin the request itself went to came from that
 * address, whatever its key is, so it follows the base URL:
 * `${host:vars.base_url}`. Text that only mentions the address is the user's
 * own words and is kept.
 *
 * @module
 */
import type { Step } from "../model.ts";
import type { Correlator } from "./state.ts";

/**
 * The request's own origin when `value` is its host and port (an API origin
 * of the recording), else `undefined`: the caller sends it as
 * `${host:<base URL var>}`.
 *
 * @example
 * ```ts
 * import { ownHostOrigin } from "./own_host.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * c.apiOrigins.add("http://127.0.0.1:3701");
 * // deno-lint-ignore no-explicit-any
 * const step = { last: { url: new URL("http://127.0.0.1:3701/api/links") } } as any;
 * if (ownHostOrigin(c, "127.0.0.1:3701", step) !== "http://127.0.0.1:3701") throw new Error();
 * if (ownHostOrigin(c, "127.0.0.1:9999", step) !== undefined) throw new Error();
 * ```
 */
export function ownHostOrigin(c: Correlator, value: string, step: Step): string | undefined {
  const url = step?.last?.url;
  if (!url || value !== url.host || !c.apiOrigins.has(url.origin)) return undefined;
  return url.origin;
}
