/**
 * One grpc-js client per target and network settings per process, so the
 * calls of a run share one HTTP/2 connection as a real client would.
 *
 * No session is left idle for a server's GOAWAY to reach: Deno 2.9.6 aborts
 * the whole process inside nghttp2 when one does (denoland/deno#36788; a loop
 * of calls against a server that then shut down aborted in its first round, 3
 * times in 3). A client without a call for {@linkcode IDLE_MS} is closed (see
 * {@linkcode releaseClient}), and {@linkcode closeChannels} closes every one
 * when a run ends; each channel owns its connection (a local subchannel pool:
 * grpc-js's shared one keeps a released connection open up to 10 s more).
 * Closed so, then shut down by its server, the loop ran 900 rounds without an
 * abort. grpc-js's own `grpc.client_idle_timeout_ms` is not enough: its idle
 * channel still aborted in the first round, 2 times in 3.
 *
 * TLS: the run's CAs (`--cacert`) and client certificate (`--cert`) as
 * grpc-js takes them. `--insecure` skips the host name check and accepts a
 * certificate no CA vouches for (`rejectUnauthorized: false`).
 * Proxy: the run's proxy for the target (`--proxy`, `HTTPS_PROXY`,
 * `NO_PROXY`) as an HTTP CONNECT tunnel (`grpc.http_connect_target`);
 * grpc-js's own reading of `grpc_proxy`/`http_proxy` is turned off so the
 * run's rules alone decide.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { isIP } from "node:net";
import { clearTimeout as clearNodeTimeout, setTimeout as nodeTimeout } from "node:timers";
import type { KindNetwork } from "../kind.ts";
import { listenToProxyLog } from "./proxy_log.ts";
import type { GrpcTarget } from "./target.ts";
import { isTold, type Told, told } from "../../model/told.ts";

/** How many distinct clients are kept; older ones are closed beyond it. */
const MAX_CLIENTS = 64;

/**
 * How long a client stays open without a call: the steps of a flow that follow
 * one another share its connection, and a longer pause closes it, so a
 * server's GOAWAY (a restart, an idle limit) finds no session idle here.
 */
const IDLE_MS = 3000;

/** Per client: the calls in progress, and the timer that closes it once idle. */
const uses = new Map<grpc.Client, { calls: number; timer?: ReturnType<typeof nodeTimeout> }>();

const clients = new Map<string, grpc.Client>();

/**
 * The channel credentials for a target: insecure (h2c), or TLS with the
 * run's CAs, client certificate and `--insecure`.
 *
 * @example
 * ```ts
 * import { credentialsFor } from "./channel.ts";
 * const c = credentialsFor(false, { insecure: false });
 * if (c._isSecure()) throw new Error();
 * ```
 */
export function credentialsFor(tls: boolean, net: KindNetwork): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const roots = net.caCerts?.length ? Buffer.from(net.caCerts.join("\n")) : null;
  const key = net.key ? Buffer.from(net.key) : null;
  const cert = net.cert ? Buffer.from(net.cert) : null;
  return withoutIpServername(grpc.credentials.createSsl(
    roots,
    key,
    cert,
    net.insecure ? { checkServerIdentity: () => undefined, rejectUnauthorized: false } : {},
  ));
}

/**
 * TLS credentials that send no server name when the target is an IP
 * address. grpc-js sends the target's host as the TLS server name (SNI)
 * even when it is an IP address, which TLS does not allow and Deno's
 * `node:tls` refuses ("options.servername must not be an IP address"), so
 * `grpcs://127.0.0.1:…` failed, directly and through a proxy alike. The
 * certificate is still checked against the address (its IP names).
 */
function withoutIpServername(credentials: grpc.ChannelCredentials): grpc.ChannelCredentials {
  const connector = credentials._createSecureConnector.bind(credentials);
  credentials._createSecureConnector = (target, options, callCredentials) => {
    const made = connector(target, options, callCredentials);
    // grpc-js keeps the options it passes to tls.connect on the connector (pinned 1.14.x).
    const tls = (made as { connectionOptions?: { servername?: string } }).connectionOptions;
    if (tls?.servername && isIP(tls.servername)) delete tls.servername;
    return made;
  };
  return credentials;
}

/**
 * The client for `target` with these settings, made once; a sentence when
 * the proxy is one grpc-js cannot use.
 *
 * @example
 * ```ts
 * import { clientFor } from "./channel.ts";
 * const target = { address: "127.0.0.1:1", tls: false, url: "grpc://127.0.0.1:1" };
 * const a = clientFor(target, { insecure: false }, 1024);
 * if ("words" in a || a !== clientFor(target, { insecure: false }, 1024)) throw new Error();
 * a.close();
 * ```
 */
export function clientFor(
  target: GrpcTarget,
  net: KindNetwork,
  maxBytes: number,
): grpc.Client | Told {
  const key = JSON.stringify([target.address, target.tls, net, maxBytes]);
  const known = clients.get(key);
  if (known) return inUse(known);
  const options = channelOptions(target, net, maxBytes);
  if (isTold(options)) return options;
  const dial = options["grpc.http_connect_target"] ? proxyAddress(net.proxy!) : target.address;
  const client = new grpc.Client(dial, credentialsFor(target.tls, net), options);
  if (clients.size >= MAX_CLIENTS) {
    forget(clients.values().next().value!);
  }
  clients.set(key, client);
  return inUse(client);
}

function inUse(client: grpc.Client): grpc.Client {
  const use = uses.get(client) ?? { calls: 0 };
  clearNodeTimeout(use.timer);
  use.calls++;
  uses.set(client, use);
  return client;
}

/**
 * Says that a call on a client {@linkcode clientFor} gave is over: the last
 * one over, the client is closed after {@linkcode IDLE_MS} without another.
 * The timer does not keep the process alive.
 *
 * @example
 * ```ts
 * import { clientFor, closeChannels, releaseClient } from "./channel.ts";
 * const target = { address: "127.0.0.1:1", tls: false, url: "grpc://127.0.0.1:1" };
 * const a = clientFor(target, { insecure: false }, 1024);
 * if ("words" in a) throw new Error();
 * releaseClient(a);
 * closeChannels();
 * ```
 */
export function releaseClient(client: grpc.Client): void {
  const use = uses.get(client);
  if (!use || --use.calls > 0) return;
  // Node's timer, unref'd: a run that is over exits without waiting for it.
  use.timer = nodeTimeout(() => forget(client), IDLE_MS).unref();
}

/** Closes `client` and forgets it. */
function forget(client: grpc.Client): void {
  clearNodeTimeout(uses.get(client)?.timer);
  uses.delete(client);
  for (const [key, known] of clients) if (known === client) clients.delete(key);
  client.close();
}

/**
 * Closes every client made so far: a run's end, so that nothing this process
 * holds waits for a server's GOAWAY. The next call makes its client again.
 *
 * @example
 * ```ts
 * import { clientFor, closeChannels } from "./channel.ts";
 * const target = { address: "127.0.0.1:1", tls: false, url: "grpc://127.0.0.1:1" };
 * const a = clientFor(target, { insecure: false }, 1024);
 * closeChannels();
 * const b = clientFor(target, { insecure: false }, 1024);
 * if (a === b || "words" in b) throw new Error();
 * b.close();
 * ```
 */
export function closeChannels(): void {
  for (const client of [...clients.values()]) forget(client);
}

function channelOptions(
  target: GrpcTarget,
  net: KindNetwork,
  maxBytes: number,
): grpc.ChannelOptions | Told {
  const options: grpc.ChannelOptions = {
    "grpc.max_receive_message_length": maxBytes,
    "grpc.max_send_message_length": -1,
    "grpc.enable_http_proxy": 0,
    "grpc.enable_retries": 0,
    "grpc.use_local_subchannel_pool": 1,
  };
  if (!net.proxy) return options;
  let proxy: URL;
  try {
    proxy = new URL(net.proxy);
  } catch {
    // The proxy URL may hold a password: a value.
    return told`The proxy "${net.proxy}" is not a URL.`;
  }
  if (proxy.protocol !== "http:") {
    return told`gRPC goes through an http:// proxy only (a CONNECT tunnel), not "${net.proxy}".`;
  }
  // What the proxy answers is only in grpc-js's log: listened to from the first proxied call.
  listenToProxyLog();
  options["grpc.http_connect_target"] = `dns:///${target.address}`;
  options["grpc.default_authority"] = target.address;
  const host = target.address.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
  // An IP address is no server name: grpc-js then names the target's host itself, as directly.
  if (!isIP(host)) options["grpc.ssl_target_name_override"] = host;
  if (proxy.username) {
    // grpc-js encodes these itself into `Proxy-Authorization: Basic …`: given base64, it sent it twice.
    options["grpc.http_connect_creds"] = `${decodeURIComponent(proxy.username)}:${
      decodeURIComponent(proxy.password)
    }`;
  }
  return options;
}

function proxyAddress(proxy: string): string {
  const url = new URL(proxy);
  return `${url.hostname}:${url.port || "80"}`;
}
