/**
 * `options` of a step or a flow: how its requests are sent. `timeout`,
 * `follow_redirects`, `delay`, `cookie_jar`, `retry` (`{count, on, delay}`,
 * or just a count), and TLS and proxy settings (`insecure`, `ca_cert`,
 * `client_cert`, `client_key`, `proxy`, `no_proxy`); a step's options
 * override its flow's key by key.
 *
 * @module
 */
import { isScalar, isSeq } from "./nodes.ts";
import type { Retry, StepOptions } from "../model/flow.ts";
import { MAX_INPUT_BYTES, MAX_TIMEOUT_MS } from "../model/limits.ts";
import { describe, type Entry, type Loading } from "./context.ts";
import { clientProblem } from "../io/client_check.ts";
import { maskUserinfo, userinfoSecrets } from "../secrets/userinfo.ts";

/** The most retries a request may have. */
export const MAX_RETRIES = 10;
/** The longest wait a delay or a retry may ask for. */
const MAX_WAIT_MS = 3_600_000;
/** The first wait before a retry when `retry` does not give one; it doubles at each retry. */
export const DEFAULT_RETRY_DELAY_MS = 100;

/** An `options` map. */
export function loadOptions(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
): StepOptions | undefined {
  if (!entry) return undefined;
  const map = ctx.map(
    ctx.deref(entry.value),
    `"options" of ${what}`,
    "options",
    [
      "timeout",
      "follow_redirects",
      "delay",
      "retry",
      "cookie_jar",
      "insecure",
      "ca_cert",
      "client_cert",
      "client_key",
      "proxy",
      "no_proxy",
    ],
    { anchor: entry.keyNode },
  );
  if (!map) return undefined;
  const options: StepOptions = {};
  const timeout = map.get("timeout");
  if (timeout) {
    const ms = ctx.duration(timeout, `"timeout" of ${what}`, 1, MAX_TIMEOUT_MS);
    if (ms !== undefined) options.timeoutMs = ms;
  }
  for (
    const [key, field] of [
      ["follow_redirects", "followRedirects"],
      ["cookie_jar", "cookieJar"],
      ["insecure", "insecure"],
    ] as const
  ) {
    const entry = map.get(key);
    if (!entry) continue;
    const v = isScalar(entry.value) ? entry.value.value : undefined;
    if (typeof v === "boolean") options[field] = v;
    else {
      ctx.problem(
        "wrong-type",
        `Expected "${key}" of ${what} to be true or false, got ${describe(entry.value)}.`,
        entry.value ?? entry.keyNode,
        {
          cookie_jar: "Write cookie_jar: true to keep cookies between the flow's requests.",
          follow_redirects:
            "Write follow_redirects: true to follow 3xx responses to the final one.",
          insecure: "Write insecure: true to skip checking the server's TLS certificate.",
        }[key],
      );
    }
  }
  const delay = map.get("delay");
  if (delay) {
    const ms = ctx.duration(delay, `"delay" of ${what}`, 0, MAX_WAIT_MS);
    if (ms !== undefined) options.delayMs = ms;
  }
  const ca = map.get("ca_cert");
  if (ca) {
    const node = ctx.deref(ca.value);
    const files = isSeq(node)
      ? node.items.map((i) => ({ key: "ca_cert", keyNode: ca.keyNode, value: ctx.deref(i) }))
      : [ca];
    const pems = files.map((f) => pemFile(ctx, f, `"ca_cert" of ${what}`));
    if (pems.every((p) => p !== undefined)) options.caCerts = pems as string[];
  }
  const certEntry = map.get("client_cert");
  const keyEntry = map.get("client_key");
  if (certEntry || keyEntry) {
    if (!certEntry || !keyEntry) {
      ctx.problem(
        "missing-key",
        `${what} has a client ${
          certEntry ? "certificate without its key" : "key without its certificate"
        }.`,
        (certEntry ?? keyEntry)!.keyNode,
        "Give both: client_cert: certs/client.pem and client_key: certs/client.key.",
      );
    } else {
      const cert = pemFile(ctx, certEntry, `"client_cert" of ${what}`);
      const key = pemFile(ctx, keyEntry, `"client_key" of ${what}`);
      if (cert && key) options.clientCert = { cert, key };
    }
  }
  const proxy = map.get("proxy");
  if (proxy) {
    const url = ctx.string(proxy, `"proxy" of ${what}`);
    if (url !== undefined && !/^(https?|socks5h?):\/\/[^/]/.test(url)) {
      ctx.problem(
        "bad-url",
        `"${maskUserinfo(url, { proxy: true })}" is not a proxy URL.`,
        proxy.value,
        "Write http://host:port, https://host:port or socks5://host:port.",
      );
      maskProxyLine(ctx, url);
    } else if (url !== undefined) options.proxy = url;
  }
  checkClient(ctx, options, { ca, cert: certEntry, key: keyEntry, proxy });
  const noProxy = map.get("no_proxy");
  if (noProxy) {
    const node = ctx.deref(noProxy.value);
    const items = isSeq(node) ? node.items.map((i) => ctx.deref(i)) : [node];
    const hosts = items.flatMap((i) =>
      isScalar(i) && typeof i.value === "string" ? i.value.split(",").map((h) => h.trim()) : []
    ).filter(Boolean);
    if (hosts.length === 0) {
      ctx.problem(
        "wrong-type",
        `Expected "no_proxy" of ${what} to list host names, got ${describe(node)}.`,
        node ?? noProxy.keyNode,
        "For example: no_proxy: [localhost, .internal.example.com]",
      );
    } else options.noProxy = hosts;
  }
  const retry = map.get("retry");
  if (retry) {
    const r = loadRetry(ctx, retry, what);
    if (r) options.retry = r;
  }
  return options;
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
  const path = ctx.string(entry, what);
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

/** `retry: 3` or `retry: {count: 3, on: [network, 503], delay: 200ms}`. */
function loadRetry(ctx: Loading, entry: Entry, what: string): Retry | undefined {
  const node = ctx.deref(entry.value);
  if (isScalar(node)) {
    const count = ctx.integer(entry, `"retry" of ${what}`, 1, MAX_RETRIES);
    return count === undefined
      ? undefined
      : { count, on: ["network"], delayMs: DEFAULT_RETRY_DELAY_MS };
  }
  const map = ctx.map(node, `"retry" of ${what}`, "retry", ["count", "on", "delay"], {
    required: ["count"],
    anchor: entry.keyNode,
  });
  if (!map) return undefined;
  const countEntry = map.get("count");
  const count = countEntry && ctx.integer(countEntry, `"retry.count" of ${what}`, 1, MAX_RETRIES);
  const delayEntry = map.get("delay");
  const delayMs = delayEntry
    ? ctx.duration(delayEntry, `"retry.delay" of ${what}`, 0, MAX_WAIT_MS)
    : DEFAULT_RETRY_DELAY_MS;
  const onEntry = map.get("on");
  const on: Retry["on"] = [];
  if (onEntry) {
    const list = ctx.deref(onEntry.value);
    const items = isSeq(list) ? list.items.map((i) => ctx.deref(i)) : [list];
    for (const item of items) {
      const v = isScalar(item) ? item.value : undefined;
      if (v === "network") on.push("network");
      else if (typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599) on.push(v);
      else {
        ctx.problem(
          "wrong-type",
          `Expected "retry.on" of ${what} to list "network" and status codes, got ${
            describe(item)
          }.`,
          item ?? onEntry.keyNode,
          "For example: on: [network, 502, 503, 504].",
        );
      }
    }
  } else on.push("network");
  if (count === undefined || delayMs === undefined) return undefined;
  return { count, on, delayMs };
}
