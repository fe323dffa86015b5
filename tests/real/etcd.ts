/**
 * How the tests of tests/real/ start etcd 3.4 (Go), from Debian's `etcd-server`: one member,
 * unprivileged, its data in the instance's folder, its client URL (the v3 API's gRPC gateway,
 * JSON over HTTP) on 127.0.0.1 and a port that was free a moment before, its peer URL on
 * another, the cluster of that one member. Its authentication is switched on as its users do
 * (`etcdctl user add root`, `etcdctl auth enable`, through the same API): the `root` user with a
 * password the user chose, whose token `POST /v3/auth/authenticate` answers is the
 * `Authorization` the API takes.
 *
 * Debian's binary serves no OpenAPI document: the test reads the one the project publishes
 * (`Documentation/dev-guide/apispec/swagger/rpc.swagger.json` of the v3.4.23 tag,
 * fixtures/etcd/README.md).
 *
 * @module
 */
import { debianMissing } from "./debian.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The Debian package, as `.ci/run` installs it. */
export const ETCD_PACKAGE = "etcd-server";

/** The server's program, as Debian installs it. */
const ETCD = "/usr/bin/etcd";

/** etcd 3.4.23's own Swagger 2.0 document of its v3 API's gateway. */
export const ETCD_DOCUMENT: URL = new URL("./fixtures/etcd/rpc.swagger.json", import.meta.url);

/** The password the user gave `root` when they switched authentication on. */
export const ETCD_ROOT_PASSWORD = "flowrun-test-etcd-root";

/**
 * Why the etcd tests cannot run here ("" when they can), after installing the package if it is
 * missing and this runs as root; with `CI` set a missing server throws.
 *
 * @example
 * ```ts
 * import { etcdMissing } from "./etcd.ts";
 * // It may install a package, so the example only names it.
 * if (typeof etcdMissing !== "function") throw new Error();
 * ```
 */
export function etcdMissing(): string {
  return debianMissing(ETCD, ETCD_PACKAGE);
}

/** A port of 127.0.0.1 that no one listened on a moment ago. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * etcd with its client URL on `PORT` and its peer URL on `peerPort`, its data in `DIR`.
 *
 * @example
 * ```ts
 * import { etcdLaunch } from "./etcd.ts";
 * if (!etcdLaunch(2380).command.includes("--initial-cluster=flowrun=http://127.0.0.1:2380")) {
 *   throw new Error();
 * }
 * ```
 */
export function etcdLaunch(peerPort: number): Launch {
  const peer = `http://127.0.0.1:${peerPort}`;
  return {
    command: [
      ETCD,
      "--name=flowrun",
      "--data-dir=DIR/data",
      "--listen-client-urls=http://127.0.0.1:PORT",
      "--advertise-client-urls=http://127.0.0.1:PORT",
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=flowrun=${peer}`,
      "--initial-cluster-state=new",
    ],
    // It logs `serving insecure client requests on 127.0.0.1:PORT` once it serves.
    origin: (out) =>
      /serving insecure client requests on (127\.0\.0\.1:\d+)/.exec(out)?.[1]?.replace(
        /^/,
        "http://",
      ),
    probe: "/health",
  };
}

/**
 * Runs `fn` with a fresh etcd, stopped and removed whatever happens. Its ports were free a
 * moment before it started; one taken since makes it exit, so a start is tried at most 3 times,
 * each on new ports ({@linkcode withRetriedStart}).
 */
export function withEtcd<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => etcdLaunch(freePort()), fn);
}

/** A POST of the v3 API's gateway, its JSON answer (throws on a refusal). */
async function call(origin: string, path: string, body: unknown, token?: string) {
  const response = await fetch(`${origin}/v3/${path}`, {
    method: "POST",
    headers: token ? { Authorization: token } : {},
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * Switches the instance's authentication on as its users do (`root` with
 * {@linkcode ETCD_ROOT_PASSWORD}, the `root` role, then `auth enable`) and answers root's token,
 * what `etcdctl --user root` sends as `Authorization`.
 *
 * @example
 * ```ts ignore
 * import { start } from "./servers.ts";
 * import { rootToken, withEtcd } from "./etcd.ts";
 * const token = await withEtcd(start, (etcd) => rootToken(etcd.origin));
 * ```
 */
export async function rootToken(origin: string): Promise<string> {
  await call(origin, "auth/user/add", { name: "root", password: ETCD_ROOT_PASSWORD });
  await call(origin, "auth/user/grant", { user: "root", role: "root" });
  await call(origin, "auth/enable", {});
  const { token } = await call(origin, "auth/authenticate", {
    name: "root",
    password: ETCD_ROOT_PASSWORD,
  });
  return token;
}
