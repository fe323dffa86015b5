/**
 * The address of another service the user typed into a form: a torrent
 * client's `http://127.0.0.1:9091/transmission/rpc` sent at a registration,
 * a broker's `mqtt://10.0.0.5:1883`. The app calls it, so a flow that sends it
 * as recorded passes only where that service listens where it did when
 * recording. An address that names a machine relative to the recording's own
 * place (loopback, a private range, a one-label or local-domain host) is the
 * deployment's, not data: when no answer produced it and it is not the
 * recorded app's own, it becomes an optional variable holding the recorded
 * value (as `BASE_URL` is), used wherever the recording sent that value. A
 * public address (a feed on the internet) means the same everywhere and is
 * kept as sent, and so is one a page listed as an option of the field's own
 * select, radio or checkbox: the user picked it, the page wrote it.
 *
 * @module
 */
import { valueKey } from "../json.ts";
import type { Step } from "../model.ts";
import { envName } from "../names.ts";
import { ownEnvName } from "../shell_env.ts";
import { isSecretShaped } from "../values.ts";
import type { Correlator } from "./state.ts";
import { choiceFields } from "./choice_fields.ts";
import { latestPage } from "./hidden_fields.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/** `scheme://host[:port]` at the start of a value, with no user part (credentials are others' rule). */
const ADDRESS = /^([a-z][a-z0-9+.-]*):\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?(?=$|[/?#])/i;

/** Each correlator's variable for each address value, so a value typed twice is one variable. */
const chosen = new WeakMap<Correlator, Map<string, string>>();

/** Correlators of text the user wrote (a curl command): an address there is sent as written. */
const asWritten = new WeakSet<Correlator>();

/**
 * Sends every address as written for `c`: a command is the user's own text, changed in place,
 * not a recording of what a form was given.
 *
 * @example
 * ```ts
 * import { companionUrl, keepAddresses } from "./companion_urls.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * keepAddresses(c);
 * // deno-lint-ignore no-explicit-any
 * if (companionUrl(c, "url", "http://127.0.0.1:9091/rpc", { name: "s" } as any)) throw new Error();
 * ```
 */
export function keepAddresses(c: Correlator): void {
  asWritten.add(c);
}

/**
 * Whether `host` names a machine only from where the recording was made: this
 * machine, a private network, or a name only a local resolver knows.
 *
 * @example
 * ```ts
 * import { isLocalHost } from "./companion_urls.ts";
 * if (!isLocalHost("127.0.0.1") || !isLocalHost("192.168.1.4") || !isLocalHost("transmission")) {
 *   throw new Error();
 * }
 * if (isLocalHost("example.com") || isLocalHost("8.8.8.8")) throw new Error();
 * ```
 */
export function isLocalHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (h.includes(":")) return h === "::1" || /^f[cd]|^fe[89ab]/.test(h);
  // A name without a dot is resolved by the local network (a container's, a host file's).
  return !h.includes(".") ||
    /\.(localhost|local|lan|internal|intranet|home\.arpa|localdomain)$/.test(h);
}

/**
 * The template for `value` when it is another local service's address the
 * user typed (see the module), else `undefined`.
 *
 * @example
 * ```ts
 * import { companionUrl } from "./companion_urls.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * c.apiOrigins.add("http://127.0.0.1:3000");
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "register" } as any;
 * const rpc = "http://127.0.0.1:9091/transmission/rpc";
 * if (companionUrl(c, "url", rpc, step) !== "${vars.register_url}") throw new Error();
 * if (companionUrl(c, "url", "http://127.0.0.1:3000/api", step) !== undefined) throw new Error();
 * if (companionUrl(c, "url", "https://example.com/feed", step) !== undefined) throw new Error();
 * const hook = "http://10.0.0.5:8123/api/webhook/Zk3q9XvB2mLp7RtY4wHs";
 * if (companionUrl(c, "url", hook, step) !== undefined) throw new Error();
 * ```
 */
export function companionUrl(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): string | undefined {
  if (asWritten.has(c)) return undefined;
  // Typed before and echoed back by an answer since (a saved setting read back): still the user's.
  const known = chosen.get(c)?.get(value);
  if (known) return known;
  const m = ADDRESS.exec(value);
  // `}` or a blank would end or split the `${ENV.NAME:-…}` that holds the default.
  if (!m || /[\s}]/.test(value) || !isLocalHost(m[2])) return undefined;
  // A query, or a path part shaped like a key (a webhook's id), may carry a credential: the
  // secret rules decide those, and a default would print it in the flow.
  const rest = value.slice(m[0].length);
  if (/[?#]/.test(rest) || rest.split("/").some(isSecretShaped)) return undefined;
  if (/^(https?|wss?)$/i.test(m[1]) && c.apiOrigins.has(new URL(m[0]).origin)) return undefined;
  if (c.responseSeen.has(valueKey(value))) return undefined;
  if (pickedOnPage(c, key, value, step)) return undefined;
  let vars = chosen.get(c);
  if (!vars) chosen.set(c, vars = new Map());
  const ref = declare(c, key, value, step);
  vars.set(value, ref);
  return ref;
}

/**
 * Whether the form's page (the latest page before `step` with a field named `key`) listed `value`
 * as an option of that field: a print server's class lists its printers by their addresses
 * (`<option value="ipp://localhost/printers/…">`), which the user picked, not typed. A page after
 * the value was typed may list it too (the saved address as the checked option): no evidence.
 */
function pickedOnPage(c: Correlator, key: string, value: string, step: Step): boolean {
  if (!c.choiceFields.get(key)?.has(value)) return false;
  const field = new RegExp(
    `<(?:input|select)\\b[^>]*\\bname\\s*=\\s*["']?${escape(key)}["'\\s>]`,
    "i",
  );
  const page = latestPage(c, step, field);
  return page !== undefined && (choiceFields([page.last]).get(key)?.has(value) ?? false);
}

/** The optional variable for `value`, declared: its env name, default and a note on setting it. */
function declare(c: Correlator, key: string, value: string, step: Step): string {
  // A one-word field (`url`, `host`) says too little alone: the step names it too.
  const field = envName(key);
  const base = /_/.test(field) || field === ""
    ? field || "SERVICE_URL"
    : `${envName(step.name)}_${field}`;
  let env = ownEnvName(base);
  for (let n = 2; c.env.has(env); n++) env = `${ownEnvName(base)}_${n}`;
  const name = c.varNames.take(env.toLowerCase());
  c.env.set(env, {
    about: `another service's address, typed into "${key}" of step "${step.name}"`,
    fallback: value,
  });
  c.vars.push([name, c.sp.envRef(env, c.sp.lit(value))]);
  c.notes.push(
    `Step "${step.name}" sends the address of another service the user typed (${value}); the flow sends it as recorded unless ${env} (or --var ${name}=…) says where that service listens.`,
  );
  return c.sp.varRef(name);
}
