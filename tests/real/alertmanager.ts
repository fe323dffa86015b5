/**
 * How the tests of tests/real/ start Prometheus Alertmanager 0.25 (Go), from
 * Debian's `prometheus-alertmanager`: in the foreground, unprivileged, its web
 * server and v2 API on 127.0.0.1 and a port that was free a moment before,
 * its silences and notification log in the instance's folder, clustering off
 * (`--cluster.listen-address=`, else it gossips on 0.0.0.0:9094), and a
 * configuration of one route to one receiver that notifies nothing.
 *
 * Debian's binary serves no OpenAPI document. The test reads the v2 API's own
 * from Debian too: `golang-github-prometheus-alertmanager-dev` 0.25.0 ships the
 * server's Go source, where go-swagger embedded the Swagger 2.0 document the
 * API was generated from (`restapi/embedded_spec.go`, `SwaggerJSON`).
 *
 * @module
 */
import { debianPackagesMissing } from "./debian.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The Debian package, as `.ci/run` installs it. */
export const ALERTMANAGER_PACKAGE = "prometheus-alertmanager";

/** The server's program, as Debian installs it. */
const ALERTMANAGER = "/usr/bin/prometheus-alertmanager";

/** The Debian package of the server's source, which holds its API document. */
export const ALERTMANAGER_SOURCE_PACKAGE = "golang-github-prometheus-alertmanager-dev";

/** The Go file go-swagger generated with the document embedded, as that package installs it. */
const EMBEDDED_SPEC =
  "/usr/share/gocode/src/github.com/prometheus/alertmanager/api/v2/restapi/embedded_spec.go";

/**
 * Alertmanager's own Swagger 2.0 document of its v2 API, as JSON text: the
 * first raw string of `embedded_spec.go` (`SwaggerJSON`; the second is a
 * flattened copy).
 *
 * @example
 * ```ts
 * import { alertmanagerDocument } from "./alertmanager.ts";
 * // It reads a file a Debian package installs, so the example only names it.
 * if (typeof alertmanagerDocument !== "function") throw new Error();
 * ```
 */
export async function alertmanagerDocument(): Promise<string> {
  const go = await Deno.readTextFile(EMBEDDED_SPEC);
  const json = /SwaggerJSON = json\.RawMessage\(\[\]byte\(`([^`]*)`/.exec(go)?.[1];
  if (json === undefined) throw new Error(`No SwaggerJSON raw string in ${EMBEDDED_SPEC}`);
  return json;
}

/** The least configuration it starts with: every alert to one receiver that sends nothing. */
const CONFIG = "route:\n  receiver: nobody\nreceivers:\n  - name: nobody\n";

/**
 * Why the Alertmanager tests cannot run here ("" when they can), after
 * installing the package if it is missing and this runs as root; with `CI`
 * set a missing server throws.
 *
 * @example
 * ```ts
 * import { alertmanagerMissing } from "./alertmanager.ts";
 * // It may install a package, so the example only names it.
 * if (typeof alertmanagerMissing !== "function") throw new Error();
 * ```
 */
export function alertmanagerMissing(): string {
  return debianPackagesMissing({
    [ALERTMANAGER_PACKAGE]: ALERTMANAGER,
    [ALERTMANAGER_SOURCE_PACKAGE]: EMBEDDED_SPEC,
  });
}

/**
 * Alertmanager on `PORT`, its data and configuration in `DIR`.
 *
 * @example
 * ```ts
 * import { alertmanagerLaunch } from "./alertmanager.ts";
 * if (!alertmanagerLaunch.command.includes("--cluster.listen-address=")) throw new Error();
 * ```
 */
export const alertmanagerLaunch: Launch = {
  command: [
    ALERTMANAGER,
    "--config.file=DIR/alertmanager.yml",
    "--storage.path=DIR/data",
    "--web.listen-address=127.0.0.1:PORT",
    "--cluster.listen-address=",
  ],
  seed: (dir) => Deno.writeTextFile(`${dir}/alertmanager.yml`, CONFIG),
  // It logs `msg="Listening on" address=127.0.0.1:PORT` once it listens.
  origin: (out) =>
    /"Listening on" address=(127\.0\.0\.1:\d+)/.exec(out)?.[1]?.replace(/^/, "http://"),
  probe: "/-/ready",
};

/**
 * Runs `fn` with a fresh Alertmanager, stopped and removed whatever happens.
 * Its port was free a moment before it started; one taken since makes it
 * exit, so a start is tried at most 3 times ({@linkcode withRetriedStart}).
 */
export function withAlertmanager<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => alertmanagerLaunch, fn);
}
