/**
 * The TLS and proxy options of a request: `ca_cert` (one or a list),
 * `client_cert` with `client_key`, `proxy` and `no_proxy`. PEM files are read
 * and the client is checked now (the runtime builds it at the first
 * request), so `validate` and `run` refuse a bad one alike, before anything
 * is sent; a proxy's password is masked in every problem.
 *
 * @module
 */
import { isScalar, isSeq } from "./nodes.ts";
import type { StepOptions } from "../model/flow.ts";
import { MAX_INPUT_BYTES } from "../model/limits.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";
import { clientProblem } from "../io/client_check.ts";
import { maskUserinfo, userinfoSecrets } from "../secrets/userinfo.ts";
import { plainString, refuseExpression } from "./not_allowed.ts";

/** `ca_cert: file` or a list of files: every one a PEM file. */
function loadCaCerts(ctx: Loading, ca: Entry, what: string): string[] | undefined {
  const node = ctx.deref(ca.value);
  const files = isSeq(node)
    ? node.items.map((i) => ({ key: "ca_cert", keyNode: ca.keyNode, value: ctx.deref(i) }))
    : [ca];
  const pems = files.map((f) => pemFile(ctx, f, `"ca_cert" of ${what}`));
  return pems.every((p) => p !== undefined) ? pems as string[] : undefined;
}

/** `client_cert` and `client_key`: both or neither. */
function loadClientCert(
  ctx: Loading,
  certEntry: Entry | undefined,
  keyEntry: Entry | undefined,
  what: string,
): StepOptions["clientCert"] {
  if (!certEntry && !keyEntry) return undefined;
  if (!certEntry || !keyEntry) {
    ctx.problem(
      "missing-key",
      `${what} has a client ${
        certEntry ? "certificate without its key" : "key without its certificate"
      }.`,
      (certEntry ?? keyEntry)!.keyNode,
      "Give both: client_cert: certs/client.pem and client_key: certs/client.key.",
    );
    return undefined;
  }
  const cert = pemFile(ctx, certEntry, `"client_cert" of ${what}`);
  const key = pemFile(ctx, keyEntry, `"client_key" of ${what}`);
  return cert && key ? { cert, key } : undefined;
}

/** `proxy`: an http(s) or socks5 URL, masked in the problem when it is not one. */
function loadProxy(ctx: Loading, proxy: Entry, what: string): string | undefined {
  const url = plainString(ctx, proxy, `"proxy" of ${what}`);
  if (url !== undefined && /^(https?|socks5h?):\/\/[^/]/.test(url)) {
    literalProxyPassword(ctx, proxy, url, what);
    return url;
  }
  if (url === undefined) return url;
  ctx.problem(
    "bad-url",
    `"${maskUserinfo(url, { proxy: true })}" is not a proxy URL.`,
    proxy.value,
    "Write http://host:port, https://host:port or socks5://host:port.",
  );
  maskProxyLine(ctx, url);
  return undefined;
}

/** A proxy option is plain text: a password in it is a credential written in the file. */
function literalProxyPassword(ctx: Loading, proxy: Entry, url: string, what: string): void {
  if (userinfoSecrets(url, { proxy: true }).length === 0) return;
  ctx.problem(
    "literal-credential",
    `The password of "proxy" of ${what} is written in the file as it is: a credential must ` +
      "not be written in a flow, where it is committed and shown.",
    proxy.value,
    'Give the proxy when running instead: --proxy "http://user:$PROXY_PASSWORD@host:port", ' +
      "or the HTTPS_PROXY environment variable.",
  );
  maskProxyLine(ctx, url);
}

/** `no_proxy`: host names, as a list or comma-separated. */
function loadNoProxy(ctx: Loading, noProxy: Entry, what: string): string[] | undefined {
  const node = ctx.deref(noProxy.value);
  const items = isSeq(node) ? node.items.map((i) => ctx.deref(i)) : [node];
  // A host is matched as written: an expression in one would never match.
  if (items.some((i) => refuseExpression(ctx, i, `"no_proxy" of ${what}`))) return undefined;
  const hosts = items.flatMap((i) =>
    isScalar(i) && typeof i.value === "string" ? i.value.split(",").map((h) => h.trim()) : []
  ).filter(Boolean);
  if (hosts.length > 0) return hosts;
  ctx.problem(
    "wrong-type",
    `Expected "no_proxy" of ${what} to list host names, got ${describe(node)}.`,
    node ?? noProxy.keyNode,
    "For example: no_proxy: [localhost, .internal.example.com]",
  );
  return undefined;
}

/**
 * The TLS and proxy keys of an `options` map, added to `options` (whose
 * `insecure` is read already): the client they make is checked as a whole.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    options: {client_cert: c.pem}\n",
 *   "f.yaml",
 * );
 * if (problems[0]?.message !== 'step "s" has a client certificate without its key.') {
 *   throw new Error(problems[0]?.message);
 * }
 * ```
 */
export function loadClientOptions(
  ctx: Loading,
  map: Map<string, Entry>,
  what: string,
  options: StepOptions,
): void {
  const ca = map.get("ca_cert");
  const caCerts = ca && loadCaCerts(ctx, ca, what);
  if (caCerts) options.caCerts = caCerts;
  const cert = map.get("client_cert");
  const key = map.get("client_key");
  const clientCert = loadClientCert(ctx, cert, key, what);
  if (clientCert) options.clientCert = clientCert;
  const proxy = map.get("proxy");
  const url = proxy && loadProxy(ctx, proxy, what);
  if (url !== undefined) options.proxy = url;
  checkClient(ctx, options, { ca, cert, key, proxy });
  const noProxy = map.get("no_proxy");
  const hosts = noProxy && loadNoProxy(ctx, noProxy, what);
  if (hosts) options.noProxy = hosts;
}

/**
 * Whether the client these options need can be built (the runtime builds it
 * at the first request): a CA file that holds no certificate, a key that is
 * not the certificate's, a proxy URL the runtime cannot use are problems now,
 * so `validate` and `run` refuse them alike, before anything is sent.
 */
function checkClient(
  ctx: Loading,
  options: StepOptions,
  at: { ca?: Entry; cert?: Entry; key?: Entry; proxy?: Entry },
): void {
  const text = (entry: Entry | undefined) => {
    const node = entry && ctx.deref(entry.value);
    return isScalar(node) ? String(node.value) : "";
  };
  const caList = at.ca && ctx.deref(at.ca.value);
  const caNodes = isSeq(caList) ? caList.items.map((i) => ctx.deref(i)) : [caList];
  const problem = clientProblem({
    ...(options.caCerts ? { caCerts: options.caCerts } : {}),
    ...(options.clientCert ?? {}),
    ...(options.proxy ? { proxy: options.proxy } : {}),
    insecure: options.insecure,
  }, {
    ca: (i) => `ca_cert "${isScalar(caNodes[i]) ? String(caNodes[i].value) : ""}"`,
    cert: `client_cert "${text(at.cert)}"`,
    key: `client_key "${text(at.key)}"`,
    proxy: `proxy "${maskUserinfo(options.proxy ?? "", { proxy: true })}"`,
  });
  if (!problem) return;
  const node = problem.part === "ca" ? caNodes[problem.index ?? 0] : at[problem.part]?.value;
  const code = { ca: "bad-cacert", cert: "bad-cert", key: "bad-key", proxy: "bad-proxy" };
  ctx.problem(code[problem.part], problem.message, node, problem.hint);
  if (problem.part === "proxy") maskProxyLine(ctx, options.proxy ?? "");
}

/** The line shown under a problem at a proxy URL holds its password: masked there too. */
function maskProxyLine(ctx: Loading, url: string): void {
  const problem = ctx.problems.at(-1);
  if (!problem?.excerpt) return;
  // Longest first: a decoded form may be part of the written one.
  const forms = userinfoSecrets(url, { proxy: true }).sort((a, b) => b.length - a.length);
  for (const form of forms) problem.excerpt = problem.excerpt.replaceAll(form, "***");
}

/** A PEM file (certificate or key), read now: a missing or non-PEM file is a problem. */
function pemFile(ctx: Loading, entry: Entry, what: string): string | undefined {
  const path = plainString(ctx, entry, what);
  if (path === undefined) return undefined;
  const got = ctx.options.readFile?.(path, ctx.file, MAX_INPUT_BYTES) ??
    { message: "this flow was loaded from its text alone" };
  const text = "bytes" in got ? new TextDecoder().decode(got.bytes) : undefined;
  if (text === undefined || !text.includes("-----BEGIN ")) {
    ctx.problem(
      ("code" in got && got.code) || "file-read",
      `Could not use "${path}" for ${what}: ${
        "message" in got ? got.message : "it is not PEM text"
      }.`,
      entry.value,
      "Give a PEM file (-----BEGIN …), relative to the flow file.",
    );
    return undefined;
  }
  return text;
}
