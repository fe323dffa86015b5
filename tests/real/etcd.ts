/**
 * How the tests of tests/real/ start etcd 3.4 (Go), from Debian's `etcd-server`: one member,
 * unprivileged, its data in the instance's folder, its client URL (the v3 API's gRPC gateway,
 * JSON over HTTP) on 127.0.0.1 and a port that was free a moment before, its peer URL on
 * another, the cluster of that one member, authentication off (as a new member starts).
 *
 * Debian's binary serves no OpenAPI document, and the one the project publishes
 * (`Documentation/dev-guide/apispec/swagger/rpc.swagger.json`) is in no package. It is what
 * grpc-gateway's `protoc-gen-swagger` makes of etcd's `rpc.proto`, and Debian ships all of that:
 * {@linkcode etcdDocument} runs `protoc` with Debian's `protoc-gen-swagger` (grpc-gateway 1.6.4)
 * on the `rpc.proto` of Debian's etcd 3.4.23 sources, as etcd's own `scripts/genproto.sh` does.
 * Compared by hand with the published one: the same 41 operations and definitions; the older
 * generator leaves out the streams' `x-stream-definitions` wrappers (their answers still say
 * "(streaming responses)"), and Debian's `rpc.proto` lacks the option that declares the
 * `ApiKey` security scheme.
 *
 * @module
 */
import { debianPackagesMissing } from "./debian.ts";
import { freePort, type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The Debian package, as `.ci/run` installs it. */
export const ETCD_PACKAGE = "etcd-server";

/** The server's program, as Debian installs it. */
const ETCD = "/usr/bin/etcd";

/** Where Debian installs Go sources. */
const GOCODE = "/usr/share/gocode/src";

/** The packages that make the document, each with a file it installs. */
const DOCUMENT_PACKAGES = {
  "protobuf-compiler": "/usr/bin/protoc",
  "libprotobuf-dev": "/usr/include/google/protobuf/descriptor.proto",
  "golang-grpc-gateway": "/usr/bin/protoc-gen-swagger",
  "golang-github-grpc-ecosystem-grpc-gateway-dev":
    `${GOCODE}/github.com/grpc-ecosystem/grpc-gateway/third_party/googleapis/google/api/annotations.proto`,
  "golang-github-gogo-protobuf-dev": `${GOCODE}/github.com/gogo/protobuf/gogoproto/gogo.proto`,
  "golang-etcd-server-dev": `${GOCODE}/go.etcd.io/etcd/etcdserver/etcdserverpb/rpc.proto`,
};

/**
 * etcd's Swagger 2.0 document of its v3 API's gateway, made in `dir` from Debian's sources (see
 * the module): its path. `rpc.proto` imports `etcd/…`, so a link named `etcd` stands for the
 * sources' root.
 *
 * @example
 * ```ts ignore
 * import { etcdDocument } from "./etcd.ts";
 * const path = await etcdDocument(await Deno.makeTempDir());
 * ```
 */
export async function etcdDocument(dir: string): Promise<string> {
  await Deno.mkdir(`${dir}/include`, { recursive: true });
  await Deno.symlink(`${GOCODE}/go.etcd.io/etcd`, `${dir}/include/etcd`);
  const gateway = `${GOCODE}/github.com/grpc-ecosystem/grpc-gateway`;
  const { code, stderr } = await new Deno.Command("protoc", {
    args: [
      `-I${dir}/include`,
      `-I${GOCODE}/github.com/gogo/protobuf`,
      `-I${GOCODE}/github.com/gogo/protobuf/protobuf`,
      `-I${gateway}/third_party/googleapis`,
      `-I${gateway}`,
      "-I/usr/include",
      `--swagger_out=logtostderr=true:${dir}`,
      `${dir}/include/etcd/etcdserver/etcdserverpb/rpc.proto`,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`protoc: ${new TextDecoder().decode(stderr)}`);
  return `${dir}/etcd/etcdserver/etcdserverpb/rpc.swagger.json`;
}

/**
 * Why the etcd tests cannot run here ("" when they can), after installing the packages if they
 * are missing and this runs as root; with `CI` set a missing server throws.
 *
 * @example
 * ```ts
 * import { etcdMissing } from "./etcd.ts";
 * // It may install a package, so the example only names it.
 * if (typeof etcdMissing !== "function") throw new Error();
 * ```
 */
export function etcdMissing(): string {
  return debianPackagesMissing({ [ETCD_PACKAGE]: ETCD, ...DOCUMENT_PACKAGES });
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
