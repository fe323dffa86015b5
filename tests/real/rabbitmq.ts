/**
 * How the tests of tests/real/ start RabbitMQ (Debian's `rabbitmq-server`
 * 3.10, Erlang) with its management plugin: a single-page admin at `/`
 * (Sammy.js, jQuery) over the JSON API under `/api/`. The page keeps the
 * typed login in its own cookie `m` (base64 of `user:password`) and builds
 * `Authorization: Basic …` from it on every API call; no answer hands out a
 * session or a token.
 *
 * Every start is a fresh node, isolated from any other on this machine: an
 * Erlang port mapper of its own (`epmd` on a free port of 127.0.0.1, named
 * to the node by `ERL_EPMD_PORT`, in the instance's process group so the
 * stop ends it), a node name of its own, its database, logs, Erlang cookie
 * (`HOME`) and config in the instance's folder, the distribution, AMQP and
 * management listeners on free ports of 127.0.0.1. The config makes one
 * administrator (`default_user`) and turns the management plugin on.
 *
 * @module
 */
import { freePort, type Launch } from "./servers.ts";
import { debianMissing } from "./debian.ts";

const SERVER = "/usr/lib/rabbitmq/bin/rabbitmq-server";

/** The administrator every fresh node has (the journey logs in as them). */
export const ADMIN = { username: "ada", password: "Quill-Harbor-77" } as const;

/**
 * Why the RabbitMQ tests cannot run here ("" when they can): no
 * `rabbitmq-server` and `apt-get install` could not put it there. With
 * `CI` set that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { rabbitmqMissing } from "./rabbitmq.ts";
 * if (typeof rabbitmqMissing() !== "string") throw new Error();
 * ```
 */
export function rabbitmqMissing(): string {
  return debianMissing(SERVER, "rabbitmq-server");
}

/**
 * The node's `rabbitmq.conf`: the management listener on `httpPort`, AMQP on
 * `amqpPort`, both on 127.0.0.1, and the administrator.
 *
 * @example
 * ```ts
 * import { rabbitmqConf } from "./rabbitmq.ts";
 * const conf = rabbitmqConf(15999, 5999);
 * if (!conf.includes("management.tcp.ip = 127.0.0.1")) throw new Error(conf);
 * ```
 */
export function rabbitmqConf(httpPort: number, amqpPort: number): string {
  return [
    `listeners.tcp.1 = 127.0.0.1:${amqpPort}`,
    `management.tcp.port = ${httpPort}`,
    "management.tcp.ip = 127.0.0.1",
    `default_user = ${ADMIN.username}`,
    `default_pass = ${ADMIN.password}`,
    "default_user_tags.administrator = true",
    "default_permissions.configure = .*",
    "default_permissions.read = .*",
    "default_permissions.write = .*",
    "",
  ].join("\n");
}

/**
 * A fresh node on 127.0.0.1, ready once the management listener says its
 * port and `/` answers there (an Erlang node boots in seconds; on a busy
 * machine up to two minutes are allowed).
 *
 * @example
 * ```ts
 * import { rabbitmqLaunch } from "./rabbitmq.ts";
 * const launch = rabbitmqLaunch();
 * if (launch.env?.RABBITMQ_MNESIA_BASE !== "DIR/mnesia") throw new Error();
 * ```
 */
export function rabbitmqLaunch(): Launch {
  const epmd = freePort();
  const amqp = freePort();
  const http = freePort();
  return {
    command: [
      "/bin/sh",
      "-c",
      `epmd -port ${epmd} -address 127.0.0.1 & exec ${SERVER}`,
    ],
    env: {
      HOME: "DIR",
      ERL_EPMD_PORT: String(epmd),
      RABBITMQ_NODENAME: `flowrun-${epmd}@localhost`,
      RABBITMQ_DIST_PORT: String(freePort()),
      RABBITMQ_MNESIA_BASE: "DIR/mnesia",
      RABBITMQ_LOG_BASE: "DIR/log",
      RABBITMQ_LOGS: "-",
      RABBITMQ_PID_FILE: "DIR/pid",
      RABBITMQ_CONFIG_FILE: "DIR/rabbitmq.conf",
      RABBITMQ_CONF_ENV_FILE: "DIR/rabbitmq-env.conf",
      RABBITMQ_ENABLED_PLUGINS_FILE: "DIR/enabled_plugins",
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: "-kernel inet_dist_use_interface {127,0,0,1}",
    },
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/rabbitmq.conf`, rabbitmqConf(http, amqp));
      await Deno.writeTextFile(`${dir}/rabbitmq-env.conf`, "");
      await Deno.writeTextFile(`${dir}/enabled_plugins`, "[rabbitmq_management].\n");
    },
    origin: (out) => {
      const port = /HTTP \(non-TLS\) listener started on port (\d+)/.exec(out)?.[1];
      return port ? `http://127.0.0.1:${port}` : undefined;
    },
    probe: "/",
    polls: 1200,
  };
}
