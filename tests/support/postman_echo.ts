/**
 * A stand-in for Postman Echo (postman-echo.com), enough for four of
 * Newman's own collections: every request echoed back as JSON (`args`,
 * `data`, `headers`, `url`), and `/basic-auth` for `postman:password`.
 *
 * @module
 */

/** Postman Echo's shape, enough for four of Newman's collections: echoes, and Basic auth. */
export function startEcho(
  lax = false,
): { origin: Promise<string>; server: Deno.HttpServer; calls: string[] } {
  const calls: string[] = [];
  let ready: (origin: string) => void;
  const origin = new Promise<string>((r) => (ready = r));
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => ready(`http://127.0.0.1:${port}`),
  }, async (req) => {
    const url = new URL(req.url);
    calls.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/basic-auth") {
      const ok = lax || req.headers.get("authorization") === `Basic ${btoa("postman:password")}`;
      return ok ? Response.json({ authenticated: true }) : new Response(null, { status: 401 });
    }
    const args = Object.fromEntries(url.searchParams);
    const text = req.method === "GET" ? "" : await req.text();
    return Response.json({
      args,
      data: text,
      headers: Object.fromEntries(req.headers),
      url: req.url,
    });
  });
  return { origin, server, calls };
}

/** Newman's collections it serves, each with the requests a run of it sends. */
export const ECHOED: [string, number][] = [
  ["newman-sample-collection", 3],
  ["newman-request-chaining-test", 2],
  ["newman-multi-level-folders-v2", 6],
  ["newman-inherited-entities", 8],
];
