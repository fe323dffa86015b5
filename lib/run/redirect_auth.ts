/**
 * A step's credentials over the hops of a followed redirect. Each hop is
 * made from the request as the step made it, before its credentials (so
 * nothing the auth added rides along: an `Authorization` signed for the
 * first URL, an API key header, `x-amz-security-token`), and then
 * authorised anew for its own method, URL and body while the redirects stay
 * at the step's origin: a SigV4 signature, a Digest answer, a bearer token,
 * an API key. A hop to another origin goes without them, and so does every
 * hop after it, even one that comes back: the other origin chose where it
 * leads.
 *
 * @module
 */
import type { AuthHandler } from "../http/auth.ts";
import { redirectTarget } from "../http/redirect.ts";
import type { ResolvedRequest } from "../http/request.ts";
import type { ReceivedResponse } from "../http/response.ts";

/**
 * The hops of one attempt: `bare` is its first request before the step's
 * auth was applied.
 *
 * @example
 * ```ts
 * import { RedirectAuth } from "./redirect_auth.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * const auth = { apply(r: { headers: [string, string][] }) { r.headers.push(["authorization", "Bearer t"]); return Promise.resolve(); } };
 * const bare = { method: "GET", url: "http://a.test/x", headers: [] as [string, string][] };
 * const hops = new RedirectAuth(bare, auth);
 * const sent = { ...bare, headers: [["authorization", "Bearer t"]] as [string, string][] };
 * const away = new ReceivedResponse(302, { location: "http://b.test/y" }, "");
 * const next = { ...sent, url: "http://b.test/y" };
 * hops.unauthorised(away, next);
 * await hops.authorise(next);
 * if (next.headers.length !== 0) throw new Error("no credentials to another origin");
 * ```
 */
export class RedirectAuth {
  #bare: ResolvedRequest;
  readonly #origin: string;
  #left = false;

  /** The hops of a request whose credentials `auth` adds. */
  constructor(bare: ResolvedRequest, readonly auth: AuthHandler) {
    this.#bare = bare;
    this.#origin = new URL(bare.url).origin;
  }

  /**
   * Makes `next` the hop `hop` leads to from the last hop as it was before
   * its credentials: the same redirect rules, nothing the auth added.
   */
  unauthorised(hop: ReceivedResponse, next: ResolvedRequest): void {
    const made = redirectTarget(this.#bare, hop.status, hop.headers.location);
    // The same status and location from the same origin always lead somewhere; kept as sent if not.
    if (!made) return;
    next.method = made.method;
    next.url = made.url;
    next.headers = made.headers;
    next.body = made.body;
    next.payload = made.payload;
  }

  /**
   * Adds the credentials to a hop (its cookies already set) while the
   * redirects have not left the step's origin.
   */
  async authorise(next: ResolvedRequest): Promise<void> {
    this.#left ||= new URL(next.url).origin !== this.#origin;
    this.#bare = { ...next, headers: [...next.headers] };
    if (!this.#left) await this.auth.apply(next);
  }
}
