/**
 * How the tests of tests/real/ start Directus 10 (npm `directus`, a headless
 * CMS: a REST API over a SQL database and a Vue admin app at `/admin`) on a
 * throwaway PostgreSQL cluster of its own (unleash.ts `startDatabase`; the
 * pure-JavaScript `pg` driver). Each start is a fresh instance:
 * `directus bootstrap` migrates the empty database and makes the first
 * admin from `ADMIN_EMAIL`/`ADMIN_PASSWORD`, as its quickstart says, then
 * `directus start` on 127.0.0.1 and a port free a moment before, with a
 * `KEY` and `SECRET` of the start's own, uploads and extensions in the
 * instance's folder, no telemetry, cache or rate limiter.
 *
 * Pinned at 10.13.4, the newest 10.x: 11 asks for Node 22 (`engines`), and
 * Debian gives Node 20 here. Two of its dependencies would be compiled with
 * node-gyp (prebuild-install's binaries are on GitHub, which the tests do
 * not reach), for more than the install's 5 minutes on a busy machine:
 * `isolated-vm`, which only sandboxed extensions and a flow's script
 * operation load (the tests have neither; `import` of it is at the top of
 * the extensions manager), and `sqlite3`, an optional driver the
 * PostgreSQL instances never load. npm `overrides` put an empty package
 * (`@favware/skip-dependency`) in their place.
 *
 * The instance serves its own OpenAPI 3 document, made for the user who
 * asks, at `/server/specs/oas`; its login (`POST /auth/login`) answers an
 * access token at `data.access_token`.
 *
 * @module
 */
import { type Instance, type Launch, type Pinned, start } from "./servers.ts";
import { postgresMissing, startDatabase } from "./unleash.ts";

/** An empty package, for a dependency the tests never load (see the module doc). */
const SKIPPED = "npm:@favware/skip-dependency@1.2.2";

/** Directus's npm package (see the module doc for why 10.13.4 and the overrides). */
export const DIRECTUS: Pinned = {
  name: "directus",
  version: "10.13.4",
  overrides: { "isolated-vm": SKIPPED, sqlite3: SKIPPED },
};

/** Where an instance serves its own OpenAPI document (for the user whose token asks). */
export const DIRECTUS_DOCUMENT = "/server/specs/oas";

/**
 * The first admin's email and password, which the user sets at the
 * bootstrap (`opts.env` may set others: the HAR tests bootstrap the email
 * their recordings typed). The email is also the login's example in the
 * OpenAPI document: the OpenAPI test checks that the summary asks for it.
 */
export const DIRECTUS_ADMIN = { email: "admin@example.com", password: "flowrun-test-admin-pass" };

/**
 * Why the Directus tests cannot run here ("" when they can): no PostgreSQL
 * (see unleash.ts `postgresMissing`; with `CI` set that throws).
 *
 * @example
 * ```ts
 * import { directusMissing } from "./directus.ts";
 * if (typeof directusMissing() !== "string") throw new Error();
 * ```
 */
export function directusMissing(): string {
  try {
    return postgresMissing();
  } catch (error) {
    throw new Error(`Directus needs PostgreSQL: ${(error as Error).message}`);
  }
}

/** What {@linkcode startDirectus} needs: the install's prefix (servers.ts `prepare`). */
export interface DirectusOptions {
  prefix: string;
  /** More environment for the instance (`WEBSOCKETS_ENABLED: "true"`), over the defaults. */
  env?: Record<string, string>;
}

/** A running fresh Directus instance. */
export interface Directus {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  baseUrl: string;
  adminEmail: string;
  adminPassword: string;
  /** Everything the server printed so far. */
  log(): string;
  /** Stops the server and its database and removes both folders; safe to call twice. */
  stop(): Promise<void>;
}

/** The environment of both `bootstrap` and `start` on the database at `url`. */
function directusEnv(url: string, more: Record<string, string>): Record<string, string> {
  return {
    DB_CLIENT: "pg",
    DB_CONNECTION_STRING: url,
    KEY: crypto.randomUUID(),
    SECRET: crypto.randomUUID(),
    ADMIN_EMAIL: DIRECTUS_ADMIN.email,
    ADMIN_PASSWORD: DIRECTUS_ADMIN.password,
    HOST: "127.0.0.1",
    PORT: "PORT",
    PUBLIC_URL: "http://127.0.0.1:PORT",
    TELEMETRY: "false",
    CACHE_ENABLED: "false",
    RATE_LIMITER_ENABLED: "false",
    STORAGE_LOCATIONS: "local",
    STORAGE_LOCAL_DRIVER: "local",
    STORAGE_LOCAL_ROOT: "DIR/uploads",
    EXTENSIONS_PATH: "DIR/extensions",
    LOG_STYLE: "raw",
    TZ: "UTC",
    ...more,
  };
}

/** Runs `directus bootstrap` in `dir` with `env` (bounded: 180 s); throws with its output. */
async function bootstrap(prefix: string, dir: string, env: Record<string, string>): Promise<void> {
  const child = new Deno.Command("node", {
    args: [`${prefix}/node_modules/directus/cli.js`, "bootstrap"],
    cwd: dir,
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll("DIR", dir)])),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  if (!out.success) {
    const said = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    throw new Error(`directus bootstrap failed (exit ${out.code}):\n${said.slice(-3000)}`);
  }
}

/**
 * The launch of Directus installed under `prefix` on the database at
 * `url`: the bootstrap is its seed, then `directus start`; ready once
 * `/server/ping` answers.
 *
 * @example
 * ```ts
 * import { directusLaunch } from "./directus.ts";
 * const launch = directusLaunch("/cache/prefix", "postgres://u@127.0.0.1:5432/db");
 * if (launch.probe !== "/server/ping" || launch.env?.DB_CLIENT !== "pg") throw new Error();
 * ```
 */
export function directusLaunch(
  prefix: string,
  url: string,
  more: Record<string, string> = {},
): Launch {
  const env = directusEnv(url, more);
  return {
    command: ["node", `${prefix}/node_modules/directus/cli.js`, "start"],
    env,
    seed: (dir) => bootstrap(prefix, dir, env),
    origin: (_output, port) => `http://127.0.0.1:${port}`,
    probe: "/server/ping",
  };
}

/**
 * Starts a fresh Directus (a new database, bootstrapped with the admin
 * {@linkcode DIRECTUS_ADMIN}) on 127.0.0.1; the start is tried twice (a
 * port taken since, a busy machine's slow start). `stop()` removes all.
 *
 * @example
 * ```ts ignore
 * import { prepare } from "./servers.ts";
 * import { DIRECTUS, startDirectus } from "./directus.ts";
 * const { install } = await prepare([DIRECTUS]);
 * const directus = await startDirectus({ prefix: install!.prefix });
 * try {
 *   const ping = await fetch(`${directus.baseUrl}/server/ping`);
 *   if ((await ping.text()) !== "pong") throw new Error();
 * } finally {
 *   await directus.stop();
 * }
 * ```
 */
export async function startDirectus(opts: DirectusOptions): Promise<Directus> {
  const db = await startDatabase();
  let instance: Instance;
  try {
    const launch = directusLaunch(opts.prefix, db.url, opts.env);
    instance = await start(launch).catch(() => start(launch));
  } catch (error) {
    await db.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    baseUrl: instance.origin,
    adminEmail: opts.env?.ADMIN_EMAIL ?? DIRECTUS_ADMIN.email,
    adminPassword: opts.env?.ADMIN_PASSWORD ?? DIRECTUS_ADMIN.password,
    log: instance.log,
    stop: () => stopped ??= instance.close().finally(() => db.close()),
  };
}

/**
 * Runs `fn` with a fresh Directus, stopped whatever happens.
 *
 * @example
 * ```ts ignore
 * import { withDirectus } from "./directus.ts";
 * await withDirectus({ prefix: "/cache/directus@10.13.4" }, async (d) => {
 *   await fetch(`${d.baseUrl}/server/ping`).then((r) => r.text());
 * });
 * ```
 */
export async function withDirectus<T>(
  opts: DirectusOptions,
  fn: (directus: Directus) => Promise<T>,
): Promise<T> {
  const directus = await startDirectus(opts);
  try {
    return await fn(directus);
  } finally {
    await directus.stop();
  }
}

/**
 * The access token of the admin's login (`POST /auth/login`), as the user
 * gets it to call the API.
 *
 * @example
 * ```ts ignore
 * import { directusToken } from "./directus.ts";
 * const token = await directusToken("http://127.0.0.1:8055", "admin@example.com", "pass");
 * ```
 */
export async function directusToken(
  baseUrl: string,
  email: string,
  password: string,
): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const body = await response.json();
  if (!response.ok) {
    throw new Error(`login as ${email}: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.data.access_token;
}
