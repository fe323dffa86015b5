/**
 * `options` of a step or a flow: how its requests are sent. `timeout`,
 * `follow_redirects`, `delay`, `cookie_jar`, `omit_empty_headers`, `retry` (`{count, on, delay}`,
 * or just a count, in retry.ts), and TLS and proxy settings (`insecure`,
 * `ca_cert`, `client_cert`, `client_key`, `proxy`, `no_proxy`, in
 * client_options.ts); a step's options override its flow's key by key.
 *
 * @module
 */
import { isScalar } from "./nodes.ts";
import type { StepOptions } from "../model/flow.ts";
import { MAX_TIMEOUT_MS } from "../model/limits.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";
import { loadClientOptions } from "./client_options.ts";
import { loadRetry, MAX_WAIT_MS } from "./retry.ts";
import { refuseExpression, refusingWith } from "./not_allowed.ts";

export { DEFAULT_RETRY_DELAY_MS, MAX_RETRIES } from "./retry.ts";

/** The keys of `options`. */
const OPTION_KEYS = [
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
  "omit_empty_headers",
];

/** The true-or-false options, their fields, and how to write each. */
const SWITCHES = [
  [
    "follow_redirects",
    "followRedirects",
    "Write follow_redirects: true to follow 3xx responses to the final one.",
  ],
  [
    "cookie_jar",
    "cookieJar",
    "Write cookie_jar: true to keep cookies between the flow's requests.",
  ],
  ["insecure", "insecure", "Write insecure: true to skip checking the server's TLS certificate."],
  [
    "omit_empty_headers",
    "omitEmptyHeaders",
    "Write omit_empty_headers: true to leave out a header whose value renders empty.",
  ],
] as const;

/** `follow_redirects`, `cookie_jar` and `insecure`: true or false. */
function loadSwitches(ctx: Loading, map: Map<string, Entry>, what: string, options: StepOptions) {
  for (const [key, field, hint] of SWITCHES) {
    const entry = map.get(key);
    if (!entry) continue;
    const v = isScalar(entry.value) ? entry.value.value : undefined;
    if (typeof v === "boolean") options[field] = v;
    else if (!refuseExpression(ctx, entry.value, `"${key}" of ${what}`)) {
      ctx.problem(
        "wrong-type",
        `Expected "${key}" of ${what} to be true or false, got ${describe(entry.value)}.`,
        entry.value ?? entry.keyNode,
        hint,
      );
    }
  }
}

/**
 * An `options` map.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\noptions: {timeout: 5s, cookie_jar: true}\nsteps:\n  - name: s\n' +
 *     '    request: {url: "http://x.test"}\n    options: {delay: 100ms, retry: 2}\n',
 *   "f.yaml",
 * );
 * const options = flow?.steps[0].options;
 * if (options?.delayMs !== 100 || options.retry?.count !== 2) throw new Error();
 * ```
 */
export function loadOptions(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
): StepOptions | undefined {
  if (!entry) return undefined;
  const map = ctx.map(ctx.deref(entry.value), `"options" of ${what}`, "options", OPTION_KEYS, {
    anchor: entry.keyNode,
  });
  if (!map) return undefined;
  return refusingWith(ctx, NO_EXPRESSIONS, () => readOptions(ctx, map, what));
}

/** What an expression in an option is told: none takes one, and what to write instead. */
const NO_EXPRESSIONS = "No option takes an expression: options are read when the flow loads. " +
  "Write the value itself (timeout: 5s), or set it for the whole run with --timeout, --proxy, " +
  "--no-proxy, --cacert, --cert/--key or --insecure.";

/** The keys of an `options` map, read. */
function readOptions(ctx: Loading, map: Map<string, Entry>, what: string): StepOptions {
  const options: StepOptions = {};
  const timeout = map.get("timeout");
  const timeoutMs = timeout && ctx.duration(timeout, `"timeout" of ${what}`, 1, MAX_TIMEOUT_MS);
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
  loadSwitches(ctx, map, what, options);
  const delay = map.get("delay");
  const delayMs = delay && ctx.duration(delay, `"delay" of ${what}`, 0, MAX_WAIT_MS);
  if (delayMs !== undefined) options.delayMs = delayMs;
  loadClientOptions(ctx, map, what, options);
  const retryEntry = map.get("retry");
  const retry = retryEntry && loadRetry(ctx, retryEntry, what);
  if (retry) options.retry = retry;
  return options;
}
