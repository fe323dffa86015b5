/**
 * An API that answers every request `{ok: true}` and records the
 * credentials it was sent: the path, `Authorization`, `x-api-key`, `Cookie`
 * and the query. Shared by the tests of `auth:` through the CLI.
 *
 * @module
 */

/** What one request carried. */
export interface SeenAuth {
  path: string;
  authorization: string | null;
  key: string | null;
  cookie: string | null;
  query: string;
}

/** Starts the recorder on a free local port: its URL, the requests seen, and how to stop it. */
export function recordAuth(): { url: string; seen: SeenAuth[]; close: () => Promise<void> } {
  const seen: SeenAuth[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push({
      path: url.pathname,
      authorization: req.headers.get("authorization"),
      key: req.headers.get("x-api-key"),
      cookie: req.headers.get("cookie"),
      query: url.search,
    });
    return Response.json({ ok: true });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/**
 * Runs `fn` with a recorder started for it ({@linkcode recordAuth}), stopped
 * whatever `fn` does.
 *
 * @example
 * ```ts ignore
 * import { withAuthRecorder } from "../support/auth_recorder.ts";
 * await withAuthRecorder(async (api) => console.log(api.url, api.seen.length));
 * ```
 */
export async function withAuthRecorder<T>(
  fn: (api: ReturnType<typeof recordAuth>) => Promise<T>,
): Promise<T> {
  const api = recordAuth();
  try {
    return await fn(api);
  } finally {
    await api.close();
  }
}
