/**
 * How a step's request reaches its server: the run's network settings with
 * the step's options over them (CAs add up, the rest overrides), as the
 * runtime client to send with or the insecure transport's route.
 *
 * @module
 */
import type { CurlVia } from "../http/curl.ts";
import type { SendOptions } from "../http/send.ts";
import { RequestError } from "../http/request_error.ts";
import { httpClient } from "../io/http_client.ts";
import type { StepOptions } from "../model/flow.ts";
import { userinfoSecrets } from "../secrets/userinfo.ts";
import type { Context, Network } from "./context.ts";

/**
 * The transport options of a request to `url`. Most runs set none of them
 * and get the runtime's default client, which follows HTTP(S)_PROXY and
 * NO_PROXY; an insecure request goes its own way and reads those variables
 * itself. Registers a flow's proxy password as a secret.
 *
 * @example
 * ```ts
 * import { transportFor } from "./transport.ts";
 * const ctx = { env: () => undefined, secret: () => {} };
 * // deno-lint-ignore no-explicit-any
 * if (Object.keys(transportFor("http://a.test/", undefined, ctx as any)).length !== 0) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * const insecure = transportFor("https://a.test/", { insecure: true, proxy: "http://p.test:3128" }, ctx as any);
 * if (insecure.insecure?.proxy !== "http://p.test:3128") throw new Error();
 * ```
 */
export function transportFor(
  url: string,
  own: StepOptions | undefined,
  ctx: Pick<Context, "network" | "env" | "secret">,
): Pick<SendOptions, "client" | "insecure"> {
  // Most runs set none of these: the default client, without parsing the URL again.
  if (!ctx.network && !own?.caCerts && !own?.clientCert && !own?.proxy && !own?.insecure) {
    return {};
  }
  const step = own ?? {};
  // A flow's proxy password is as secret as the run's: masked in every form it may be written.
  for (const form of step.proxy ? userinfoSecrets(step.proxy, { proxy: true }) : []) {
    ctx.secret(form);
  }
  const host = new URL(url).hostname.toLowerCase();
  const run = ctx.network ?? {};
  return (step.insecure ?? run.insecure)
    ? { insecure: insecureRoute(url, host, step, run, ctx.env) }
    : clientFor(host, step, run);
}

/**
 * `HTTPS_PROXY` (`HTTP_PROXY` for an http URL) and `NO_PROXY`, in either case: what the runtime's
 * client reads itself, given to a connection made without it (an insecure request, a kind's).
 *
 * @example
 * ```ts
 * import { proxyEnv } from "./transport.ts";
 * const env = (name: string) => ({ https_proxy: "http://p:3128", NO_PROXY: "a.test, b.test" })[name];
 * const got = proxyEnv("https://x.test/", env);
 * if (got.proxy !== "http://p:3128" || got.noProxy?.join() !== "a.test,b.test") throw new Error();
 * ```
 */
export function proxyEnv(
  url: string,
  env: Context["env"],
): { proxy?: string; noProxy?: string[] } {
  const read = (name: string) => env(name) ?? env(name.toLowerCase()) ?? undefined;
  const proxy = url.startsWith("https:") ? read("HTTPS_PROXY") : read("HTTP_PROXY");
  const noProxy = read("NO_PROXY")?.split(",").map((h) => h.trim()).filter(Boolean);
  return { ...(proxy ? { proxy } : {}), ...(noProxy ? { noProxy } : {}) };
}

/** The proxy and client certificate of an insecure request; no proxy for a `NO_PROXY` host. */
function insecureRoute(
  url: string,
  host: string,
  step: StepOptions,
  run: Network,
  env: Context["env"],
): NonNullable<SendOptions["insecure"]> {
  const fromEnv = proxyEnv(url, env);
  const noProxy = step.noProxy ?? run.noProxy ?? fromEnv.noProxy ?? [];
  const proxy = bypasses(host, noProxy) ? undefined : step.proxy ?? run.proxy ?? fromEnv.proxy;
  const cert = step.clientCert ?? run.clientCert;
  return { ...(proxy ? { proxy } : {}), ...(cert ?? {}) };
}

/** The runtime client for the CAs, client certificate and proxy, or none when all are unset. */
function clientFor(
  host: string,
  step: StepOptions,
  run: Network,
): Pick<SendOptions, "client"> {
  const cert = step.clientCert ?? run.clientCert;
  const caCerts = [...run.caCerts ?? [], ...step.caCerts ?? []];
  const proxy = bypasses(host, step.noProxy ?? run.noProxy ?? [])
    ? undefined
    : step.proxy ?? run.proxy;
  if (caCerts.length === 0 && !cert && !proxy) return {};
  try {
    return {
      client: httpClient({
        ...(caCerts.length > 0 ? { caCerts } : {}),
        ...(cert ? { cert: cert.cert, key: cert.key } : {}),
        ...(proxy ? { proxy } : {}),
      }),
    };
  } catch (error) {
    // Checked when the run started; should the runtime still refuse, this step fails, not the run.
    throw new RequestError(
      "network",
      `Request failed: the HTTP client for its CA certificates, client certificate or proxy ` +
        `could not be made (${(error as Error).message.replace(/\.$/, "")}).`,
    );
  }
}

/**
 * Whether `host` is reached without the proxy: a listed name, a `.suffix`
 * domain, or `*` (names compared without case, a listed port ignored).
 *
 * @example
 * ```ts
 * import { bypasses } from "./transport.ts";
 * if (!bypasses("api.example.test", [".Example.test:443"]) || bypasses("a.test", ["b.test"])) throw new Error();
 * ```
 */
export function bypasses(host: string, noProxy: readonly string[]): boolean {
  return noProxy.some((entry) => {
    const h = entry.toLowerCase().replace(/:\d+$/, "");
    return h === "*" || host === h ||
      (h.startsWith(".") ? host.endsWith(h) : host.endsWith(`.${h}`));
  });
}

/**
 * The transport a step's curl line must name: the step's options over the
 * run's, as {@linkcode transportFor} reads them (a proxy from the
 * environment needs none: curl reads the same variables).
 *
 * @example
 * ```ts
 * import { curlVia } from "./transport.ts";
 * const via = curlVia({ proxy: "http://p.test:3128" }, { network: { insecure: true, caCerts: ["PEM"] } });
 * if (!via?.insecure || via.proxy !== "http://p.test:3128" || !via.certificates) throw new Error();
 * if (curlVia(undefined, {}) !== undefined) throw new Error();
 * ```
 */
export function curlVia(
  own: StepOptions | undefined,
  ctx: Pick<Context, "network">,
): CurlVia | undefined {
  const run = ctx.network ?? {};
  const step = own ?? {};
  const via: CurlVia = {
    insecure: step.insecure ?? run.insecure,
    proxy: step.proxy ?? run.proxy,
    noProxy: step.noProxy ?? run.noProxy,
    certificates: Boolean(
      run.caCerts?.length || step.caCerts?.length || (step.clientCert ?? run.clientCert),
    ),
  };
  return via.insecure || via.proxy || via.noProxy?.length || via.certificates ? via : undefined;
}
