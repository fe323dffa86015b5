/**
 * How the tests of tests/real/ start httpbin 0.7.0 (Python, Flask), from
 * Debian's `python3-httpbin`: its own `python3 -m httpbin.core` (Flask's
 * development server, one thread per request) on 127.0.0.1 and a port that
 * was free a moment before. It keeps no state between requests.
 *
 * Debian's 0.7.0 serves no OpenAPI document. httpbin's Swagger 2.0 document
 * (`/spec.json`, made by flasgger from the docstrings of 0.8 and later) was
 * measured by hand (docs/real-servers.md); it is not stored: it came from a
 * fetched snapshot's source, which the project may not commit.
 *
 * @module
 */
import { debianMissing } from "./debian.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The Debian package, as `.ci/run` installs it. */
export const HTTPBIN_PACKAGE = "python3-httpbin";

/** A file the package installs: the app. */
const HTTPBIN_APP = "/usr/lib/python3/dist-packages/httpbin/core.py";

/**
 * Why the httpbin tests cannot run here ("" when they can), after installing
 * the package if it is missing and this runs as root; with `CI` set a
 * missing server throws.
 *
 * @example
 * ```ts
 * import { httpbinMissing } from "./httpbin.ts";
 * // It may install a package, so the example only names it.
 * if (typeof httpbinMissing !== "function") throw new Error();
 * ```
 */
export function httpbinMissing(): string {
  return debianMissing(HTTPBIN_APP, HTTPBIN_PACKAGE);
}

/**
 * httpbin on `PORT`. Debian's python3 by its path: a `python3` earlier on
 * `PATH` (pyenv's) does not see Debian's packages.
 *
 * @example
 * ```ts
 * import { httpbinLaunch } from "./httpbin.ts";
 * if (!httpbinLaunch.command.includes("httpbin.core")) throw new Error();
 * ```
 */
export const httpbinLaunch: Launch = {
  command: ["/usr/bin/python3", "-m", "httpbin.core", "--host", "127.0.0.1", "--port", "PORT"],
  // Flask prints ` * Running on http://127.0.0.1:PORT` once it listens.
  origin: (out) => /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
  probe: "/get",
};

/**
 * Runs `fn` with a fresh httpbin, stopped whatever happens. Its port was
 * free a moment before it started; one taken since makes it exit, so a
 * start is tried at most 3 times ({@linkcode withRetriedStart}).
 */
export function withHttpbin<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => httpbinLaunch, fn);
}
