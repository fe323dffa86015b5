/**
 * How the tests of tests/real/ start better-auth (`better-auth` 1.3.24, npm,
 * Node) with its `openAPI()` plugin: a tiny Node server written here
 * (`server.mjs`, put in the instance's data folder at each start) mounts
 * better-auth's own handler with email and password sign-up enabled, its
 * users and sessions in the in-memory adapter (no native build), on
 * 127.0.0.1 and a port the system picks, with `baseURL` its own address.
 * Its OpenAPI 3.1 document is at `/api/auth/open-api/generate-schema`.
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** The library, pinned. */
export const BETTER_AUTH: Pinned = { name: "better-auth", version: "1.3.24" };

/** Where the `openAPI()` plugin serves its document. */
export const BETTER_AUTH_DOCUMENT = "/api/auth/open-api/generate-schema";

/** The server: listens first, so that better-auth's `baseURL` is the address it got. */
const SERVER = `import http from "node:http";
import { betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import { openAPI } from "better-auth/plugins";
import { toNodeHandler } from "better-auth/node";
const server = http.createServer();
server.listen(0, "127.0.0.1", () => {
  const origin = "http://127.0.0.1:" + server.address().port;
  const auth = betterAuth({
    baseURL: origin,
    secret: "the-test-server-own-secret-0123456789abcdef",
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true },
    plugins: [openAPI()],
  });
  server.on("request", toNodeHandler(auth));
  console.log("listening at " + origin);
});
`;

/**
 * better-auth, installed under `prefix`, behind the server written here.
 *
 * @example
 * ```ts
 * import { betterAuthLaunch } from "./better_auth.ts";
 * if (betterAuthLaunch("/cache/prefix").probe !== "/api/auth/ok") throw new Error();
 * ```
 */
export function betterAuthLaunch(prefix: string): Launch {
  return {
    command: ["node", "DIR/server.mjs"],
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/server.mjs`, SERVER);
      await Deno.symlink(`${prefix}/node_modules`, `${dir}/node_modules`);
    },
    origin: (out) => /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
    probe: "/api/auth/ok",
  };
}
