/**
 * A stand-in of a server-rendered app that hands out a new CSRF token with each page and
 * refuses a post that sends any other: what a recording's token must be captured against.
 *
 * @module
 */

/** What tells one app's pages and posts apart. */
export interface TokenSite {
  /** The page a GET of `path` answers, holding `token` as the app writes it. */
  page: (path: string, token: string) => string;
  /** A new token, as the app makes one. */
  fresh: () => string;
  /** The form field a post sends its token in. */
  field: string;
  /** The answer to a post, by whether it sent the last token handed out. */
  answer: (ok: boolean) => Response;
}

/**
 * Starts `site` on 127.0.0.1: each GET a new token in its page, each post checked against the
 * last one; `refused()` counts the posts that sent another.
 *
 * @example
 * ```ts
 * import { tokenStandIn } from "./token_pages.ts";
 * const app = tokenStandIn({
 *   page: (_path, token) => `<input name="t" value="${token}">`,
 *   fresh: () => crypto.randomUUID(),
 *   field: "t",
 *   answer: (ok) => new Response(null, { status: ok ? 200 : 403 }),
 * });
 * const refused = await fetch(app.origin, { method: "POST", body: "t=old" });
 * await refused.body?.cancel();
 * if (app.refused() !== 1) throw new Error();
 * await app.close();
 * ```
 */
export function tokenStandIn(
  site: TokenSite,
): { origin: string; refused: () => number; close: () => Promise<void> } {
  let current = "";
  let refused = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") {
      current = site.fresh();
      const page = site.page(new URL(req.url).pathname, current);
      return new Response(page, { headers: { "content-type": "text/html" } });
    }
    const ok = new URLSearchParams(await req.text()).get(site.field) === current;
    if (!ok) refused++;
    return site.answer(ok);
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused: () => refused,
    close: () => server.shutdown(),
  };
}
