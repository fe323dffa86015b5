/**
 * How the tests of tests/real/ start the PowerDNS Authoritative Server 4.7
 * (C++), from Debian's `pdns-server` and `pdns-backend-sqlite3`: unprivileged
 * ports on 127.0.0.1 (DNS on one that was free a moment before, the HTTP API
 * on `PORT`), its zones in an SQLite file of the instance's own folder made
 * from the package's schema, an empty configuration folder, no daemon, no
 * guardian, no security poll (a DNS query out), DNSSEC on (its cryptokeys
 * need it: "Adding key failed, perhaps DNSSEC not enabled"). Its HTTP API
 * (`/api/v1/…`) takes the key the user starts it with in `X-API-Key`, and
 * serves its own Swagger 2.0 document at `/api/docs` (JSON when asked for).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { freePort, type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The server's program, as Debian installs it. */
export const PDNS_SERVER = "/usr/sbin/pdns_server";

/** Where the API serves its own Swagger 2.0 document (JSON for `Accept: application/json`). */
export const PDNS_DOCUMENT = "/api/docs";

/** The API key the instance is started with (`--api-key`): the user wrote it in their config. */
export const PDNS_API_KEY = "flowrun-test-pdns-api-key";

/** The Debian packages, as `.ci/run` installs them. */
const PACKAGES = ["pdns-server", "pdns-backend-sqlite3"];

/** The gsqlite3 schema: the package's own folder, else its doc (Debian may leave docs out). */
const SCHEMAS = [
  "/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql",
  "/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql",
];

function schemaPath(): string | undefined {
  return SCHEMAS.find((path) => {
    try {
      return Deno.statSync(path).isFile && Deno.statSync(PDNS_SERVER).isFile;
    } catch {
      return false;
    }
  });
}

/** `apt-get install` of the packages as root, bounded by a 5-minute kill; whether it worked. */
async function aptInstall(): Promise<boolean> {
  if (Deno.uid() !== 0) return false;
  try {
    const child = new Deno.Command("apt-get", {
      args: ["install", "-y", "-q", "--no-install-recommends", ...PACKAGES],
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    const status = await child.status.finally(() => clearTimeout(timer));
    return status.success;
  } catch {
    return false; // no apt-get here
  }
}

/**
 * Why the PowerDNS tests cannot run here ("" when they can), after
 * installing the packages if they are missing and this runs as root. With
 * `CI` set a missing server is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { pdnsMissing } from "./pdns.ts";
 * // It may install packages, so the example only names it.
 * if (typeof pdnsMissing !== "function") throw new Error();
 * ```
 */
export async function pdnsMissing(): Promise<string> {
  if (schemaPath() || (await aptInstall() && schemaPath())) return "";
  const why = `${PDNS_SERVER} or its gsqlite3 schema is missing (Debian's ${PACKAGES.join(", ")})`;
  if (Deno.env.get("CI")) throw new Error(`PowerDNS is not installed: ${why}`);
  return ` [ignored: ${why}; with CI set this fails]`;
}

/** PowerDNS prints `[webserver] Listening for HTTP requests on 127.0.0.1:PORT` once it listens. */
function pdnsOrigin(out: string): string | undefined {
  const port = /Listening for HTTP requests on 127\.0\.0\.1:(\d+)/.exec(out)?.[1];
  return port ? `http://127.0.0.1:${port}` : undefined;
}

/**
 * PowerDNS on a fresh SQLite database in the instance's folder, its API
 * key {@linkcode PDNS_API_KEY}; DNS on `dnsPort`, the API on `PORT`.
 *
 * @example
 * ```ts
 * import { pdnsLaunch } from "./pdns.ts";
 * const launch = pdnsLaunch(5353);
 * if (!launch.command.includes("--local-port=5353") || launch.probe !== "/") throw new Error();
 * ```
 */
export function pdnsLaunch(dnsPort: number): Launch {
  return {
    command: [
      PDNS_SERVER,
      "--config-dir=DIR/conf",
      "--socket-dir=DIR",
      "--daemon=no",
      "--guardian=no",
      "--disable-syslog=yes",
      "--security-poll-suffix=",
      "--local-address=127.0.0.1",
      `--local-port=${dnsPort}`,
      "--webserver=yes",
      "--webserver-address=127.0.0.1",
      "--webserver-port=PORT",
      "--webserver-allow-from=127.0.0.1",
      "--api=yes",
      `--api-key=${PDNS_API_KEY}`,
      "--launch=gsqlite3",
      "--gsqlite3-database=DIR/pdns.sqlite3",
      "--gsqlite3-dnssec=yes",
    ],
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/conf`);
      const db = new DatabaseSync(`${dir}/pdns.sqlite3`);
      try {
        db.exec(await Deno.readTextFile(schemaPath()!));
      } finally {
        db.close();
      }
    },
    origin: pdnsOrigin,
    // The statistics page needs no key; it answers once the web server runs.
    probe: "/",
  };
}

/**
 * Runs `fn` with a fresh PowerDNS, stopped and removed whatever happens.
 * Its two ports were free a moment before it started; one taken since makes
 * it exit, so a start is tried at most 3 times, each on new ports ({@linkcode withRetriedStart}).
 */
export function withPdns<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => pdnsLaunch(freePort()), fn);
}
