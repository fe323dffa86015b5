/**
 * An echo service of Postman Echo's shape, enough for the four collections
 * written here that call it (tests/fixtures/postman: small-sample, chained,
 * nested-folders, inherited-auth, all at `https://echo.flowrun.test`): every
 * request echoed back as JSON (`args`, `data`, `headers`, `url`), and
 * `/basic-auth` for the inherited-auth collection's `keeper:open-sesame-42`.
 *
 * @module
 */

/** The Basic credentials the inherited-auth collection's collection-level auth sends. */
export const ECHO_BASIC = { user: "keeper", password: "open-sesame-42" };

/** An echo service of Postman Echo's shape: echoes, and Basic auth. */
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
      const ok = lax || req.headers.get("authorization") ===
          `Basic ${btoa(`${ECHO_BASIC.user}:${ECHO_BASIC.password}`)}`;
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

/** The collections it serves, each with the requests a run of it sends. */
export const ECHOED: [string, number][] = [
  ["small-sample", 3],
  ["chained", 2],
  ["nested-folders", 6],
  ["inherited-auth", 8],
];

/** The host the echoed collections call, which tests point at the echo server. */
export const ECHO_HOST = /https?:\/\/echo\.flowrun\.test/g;

/** What a converted echoed collection needs set to run against the echo server at `origin`. */
export function echoEnv(origin: string): Record<string, string> {
  return {
    BASIC_PASSWORD: ECHO_BASIC.password,
    DIGEST_PASSWORD: "bay-door-19",
    DIGEST_PASSWORD_2: "counter-bell-3",
    SHOP_VARIABLES_URL: `${origin}/get?from=collection_variable`,
  };
}
