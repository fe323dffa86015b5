/**
 * `flowrun convert har --verify [BASE_URL]`: the converted flow replayed step
 * by step against a live instance of the API, each live response compared
 * with the recorded one, and the flow repaired from what that shows.
 *
 * Levels, like the runner's: {@linkcode verifyConversion} walks the steps
 * (this file); `verify_live.ts` sends one step with the runner's own step
 * level; `verify_values.ts` reads what each recorded response handed out;
 * `verify_template.ts` rewrites a step's request.
 *
 * The rules:
 *
 * 1. **Evidence.** A value a recorded response handed out (a JSON leaf, a
 *    cookie it set, a `Location`/`ETag` header, a value embedded in a page)
 *    that a later recorded request sent back is probed for in the live
 *    response of its step by a capture. When the live value differs, every
 *    later request that still writes the recorded value (literally,
 *    percent-encoded in the URL, or as the recorded value of a variable the
 *    conversion made for it, such as `SESSION_COOKIE`) captures it from that
 *    step instead. When several responses handed out the value, the first
 *    one that changed is used; in the `Cookie` header, the cookie that set
 *    it (encoded as it was set), elsewhere a page or body that handed it out.
 * 2. **Candidates.** A step that does not pass after that is sent again with
 *    each other response that handed out one of its values, at most
 *    {@linkcode MAX_TRIES_PER_STEP} times; a candidate is kept only when the
 *    step then passes.
 * 3. **Bounds.** At most {@linkcode MAX_VERIFY_RUNS} step runs in all; the
 *    steps past it are listed as not verified.
 * 4. **Hosts.** A step is sent only to the API's hosts: the host of the
 *    `--verify` URL (else of `BASE_URL`, else the recorded origin) and of
 *    each other base-URL variable (`BASE_URL_2`, …) set in the environment.
 * 5. **Said.** Every repair, every step that still does not pass and every
 *    step not sent is a line of the summary and a `# verify:` comment over
 *    its step. No recorded or live value is written: only references.
 *
 * @module
 */
import { loadFlow } from "../load/load_flow.ts";
import { yamlEngine } from "../load/yaml_engine.ts";
import { pathEngine } from "../expr/path_engine.ts";
import type { Flow } from "../model/flow.ts";
import type { StepResult } from "../model/result.ts";
import type { Correlator } from "./correlate.ts";
import type { PreparedConversion } from "./har.ts";
import type { Source, Step } from "./model.ts";
import { type LiveOutcome, LiveSession } from "./verify_live.ts";
import { type RequestParts, requestParts, substitute } from "./verify_template.ts";
import { type Handed, handedOut, sentText } from "./verify_values.ts";
import { writeFlow } from "./write.ts";

/**
 * How many more times one step is sent with other candidate repairs after
 * its first run.
 *
 * @example
 * ```ts
 * import { MAX_TRIES_PER_STEP } from "./verify.ts";
 * if (MAX_TRIES_PER_STEP !== 4) throw new Error();
 * ```
 */
export const MAX_TRIES_PER_STEP = 4;

/**
 * How many step runs one verification makes in all (first runs and tries).
 *
 * @example
 * ```ts
 * import { MAX_VERIFY_RUNS } from "./verify.ts";
 * if (MAX_VERIFY_RUNS !== 500) throw new Error();
 * ```
 */
export const MAX_VERIFY_RUNS = 500;

/** Values probed for in one live response, at most. */
const MAX_PROBES_PER_STEP = 200;

const PROBE = "verify_probe_";

/** Options of {@linkcode verifyConversion}. */
export interface VerifyOptions {
  /** The live instance's base URL; default: `BASE_URL` from `env`, else the recorded origin. */
  baseUrl?: string;
  /** Reads environment variables (the variables the flow names, `BASE_URL_2`, …). */
  env: (name: string) => string | undefined;
  /** Per-request timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
}

/** What a verification did, for the summary. */
export interface VerifyReport {
  /** The base URL verified against. */
  baseUrl: string;
  /** Steps in the flow. */
  steps: number;
  /** Steps that passed live. */
  passed: number;
  /** Each repair kept: the step and what it now sends. */
  repairs: { step: string; text: string }[];
  /** Steps that did not pass, with how often each was tried after its first run. */
  failed: { step: string; tries: number; message: string }[];
  /** Steps not sent because their host is not the API's. */
  notSent: { step: string; host: string }[];
  /** Steps not sent because the verification's bound was reached. */
  unverified: string[];
  /** Requests sent in all. */
  requests: number;
}

/** A response of the session that handed out a value, and what the live one holds there. */
interface Producer {
  index: number;
  handed: Handed;
  source: Source;
}

/** The state of a step's request and of every step's captures, to put back after a try. */
interface Snapshot {
  parts: RequestParts;
  uses: Set<string>;
  captures: [Step["captures"], Map<string, string>][];
  replaced: Correlator["replaced"];
}

/**
 * Verifies a prepared conversion against a live instance and repairs its
 * steps in place; the caller then writes it (`finishConversion`).
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { verifyConversion } from "./verify.ts";
 * // The recording's API is on shop.test; verified against 127.0.0.1:9, which is the API then.
 * const entry = (method: string, url: string, status: number, body: unknown) => ({
 *   request: { method, url },
 *   response: { status, content: { mimeType: "application/json", text: JSON.stringify(body) } },
 * });
 * const har = JSON.stringify({ log: { entries: [
 *   entry("POST", "https://shop.test/orders", 201, { id: "ord_8f3a2c91" }),
 *   entry("GET", "https://tracker.test/v1/p", 200, {}),
 * ] } });
 * const prepared = prepareConversion(har, { noCorrelate: true, includeHosts: ["shop.test", "tracker.test"] });
 * const report = await verifyConversion(prepared, { baseUrl: "http://127.0.0.1:9", env: () => undefined, timeoutMs: 2000 });
 * // The order could not be sent (nothing listens there); the tracker is not the API's host.
 * if (report.failed.length !== 1 || report.notSent[0].host !== "tracker.test") throw new Error(JSON.stringify(report));
 * ```
 */
export async function verifyConversion(
  prepared: PreparedConversion,
  options: VerifyOptions,
): Promise<VerifyReport> {
  const { c, traffic } = prepared;
  // Loading and capturing stay synchronous: the engines they may need are loaded first.
  await Promise.all([yamlEngine.load(), pathEngine.load()]);
  // A whole Cookie header kept as one secret would mask the cookie names a repair captures by.
  for (const secret of [...c.secrets]) {
    if (!/^[^=;\s]+=[^;]*(; [^=;\s]+=[^;]*)*$/.test(secret)) continue;
    c.secrets.delete(secret);
    for (const pair of secret.split("; ")) c.secrets.add(pair.slice(pair.indexOf("=") + 1));
  }
  const recordedOrigin = [...c.origins.keys()][0] ?? "";
  const baseUrl = options.baseUrl || options.env("BASE_URL") || recordedOrigin;
  const hosts = [new URL(baseUrl).host];
  for (const [name, v] of c.env) {
    const given = options.env(name);
    if (name !== "BASE_URL" && v.fallback !== undefined && given && URL.canParse(given)) {
      hosts.push(new URL(given).host);
    }
  }
  const write = () =>
    writeFlow(c, { total: traffic.parsed.total, ordered: traffic.ordered, notes: [] }).yaml;
  const recordedByName = () => {
    const out = new Map<string, string>();
    for (const [key, name] of c.envByValue) out.set(name, key.slice(key.indexOf("\n") + 1));
    return out;
  };
  const env = (name: string) =>
    name === "BASE_URL"
      ? baseUrl
      : name.startsWith("RECORDED_SECRET")
      ? recordedByName().get(name) ?? options.env(name)
      : options.env(name);
  const load = (probes: [string, Source][] = [], at = -1): Flow => {
    const step = c.steps[at];
    const kept = step?.captures.length ?? 0;
    step?.captures.push(...probes);
    const yaml = write();
    if (step) step.captures.length = kept;
    // Variables are read when the step is sent; upload files are the ones the conversion writes.
    const { flow, problems } = loadFlow(yaml, "verify.yaml", {
      checkEnv: false,
      readFile: (path) => {
        const text = c.files.get(path);
        return text === undefined
          ? { message: `"${path}" is not a file the conversion writes` }
          : { bytes: new TextEncoder().encode(text) };
      },
    });
    if (!flow) throw new Error(`the converted flow does not load: ${problems[0]?.message}`);
    return flow;
  };

  const sent = c.steps.map((s) => sentText(s.first));
  const producers = producersOf(c, sent);
  const live = new Map<string, unknown>();
  const liveKey = (p: Producer) => `${p.index}\0${p.handed.value}`;
  const session = new LiveSession(load(), env, hosts, options.timeoutMs);
  const report: VerifyReport = {
    baseUrl,
    steps: c.steps.length,
    passed: 0,
    repairs: [],
    failed: [],
    notSent: [],
    unverified: [],
    requests: 0,
  };
  let runs = 0;

  const snapshot = (step: Step): Snapshot => ({
    parts: requestParts(step),
    uses: new Set(step.uses),
    captures: c.steps.map((s) => [s.captures.slice(), new Map(s.captureByPath)]),
    replaced: { ...c.replaced },
  });
  const restore = (step: Step, s: Snapshot) => {
    Object.assign(step, s.parts);
    step.uses = new Set(s.uses);
    c.steps.forEach((x, i) => {
      x.captures = s.captures[i][0].slice();
      x.captureByPath = new Map(s.captures[i][1]);
    });
    Object.assign(c.replaced, s.replaced);
  };
  /** Makes the step send each chosen producer's live value; returns what changed. */
  const apply = (step: Step, chosen: Map<string, Producer>): string[] => {
    const variables = new Map(
      [...recordedByName()].map(([name, value]) => [c.sp.envRef(name), value]),
    );
    const done: string[] = [];
    const at = c.steps.indexOf(step);
    const usable = (q: Producer, value: string) =>
      q.index < at && liveText(q) !== undefined && liveText(q) !== value;
    for (const [value, p] of [...chosen].sort((a, b) => b[0].length - a[0].length)) {
      // A value goes back in the Cookie header from the cookie that set it (as it was set,
      // encoding included), elsewhere from the page or body that handed it out, if one did.
      const list = producers.get(value) ?? [];
      const isCookie = (q: Producer) => q.source.kind === "cookie";
      const cookie = isCookie(p) ? p : list.find((q) => isCookie(q) && usable(q, value));
      const other = !isCookie(p) ? p : list.find((q) => !isCookie(q) && usable(q, value));
      const plan: [Producer, "cookie" | "other" | undefined][] = cookie && other
        ? [[cookie, "cookie"], [other, "other"]]
        : [[p, undefined]];
      for (const [q, where] of plan) {
        const producer = c.steps[q.index];
        const before = snapshot(step);
        const secret = c.secrets.has(value);
        const ref = c.useProducer({ step: producer, source: q.source, secret }, step);
        const name = /\.([^.}]+)\}$/.exec(ref)![1];
        const rawRef = ref.replace(/^\$\{/, "${raw:");
        const lit = (t: string) => c.sp.lit(t);
        const n = substitute(step, { value, ref, rawRef, variables, lit, where });
        if (n === 0) {
          restore(step, before);
          continue;
        }
        session.setCapture(producer.name, name, live.get(liveKey(q)));
        done.push(`sends ${ref}: ${q.handed.label} of step "${producer.name}" changed live`);
      }
    }
    return done;
  };
  const run = async (i: number): Promise<LiveOutcome> => {
    runs++;
    const probes = (probesAt.get(i) ?? []).map((p, k) =>
      [`${PROBE}${k}`, p.source] as [string, Source]
    );
    const flow = load(probes, i);
    return await session.run(flow.steps[i], flow);
  };
  const probesAt = new Map<number, Producer[]>();
  for (const list of producers.values()) {
    for (const p of list) {
      const at = probesAt.get(p.index) ?? [];
      if (at.length < MAX_PROBES_PER_STEP) at.push(p);
      probesAt.set(p.index, at);
    }
  }
  const remember = (i: number, captured: Map<string, unknown>) => {
    (probesAt.get(i) ?? []).forEach((p, k) => {
      if (captured.has(`${PROBE}${k}`)) live.set(liveKey(p), captured.get(`${PROBE}${k}`));
    });
  };
  const liveText = (p: Producer) => {
    const v = live.get(liveKey(p));
    return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
  };

  try {
    for (let i = 0; i < c.steps.length; i++) {
      const step = c.steps[i];
      if (runs >= MAX_VERIFY_RUNS) {
        report.unverified.push(step.name);
        remark(
          step,
          `not verified: the verification's bound of ${MAX_VERIFY_RUNS} step runs was reached`,
        );
        continue;
      }
      // The values this request sent that an earlier response handed out, by their producers.
      const mine = [...producers].filter(([value]) =>
        sent[i].includes(value) || sent[i].includes(encodeURIComponent(value))
      ).map(([value, list]) =>
        [value, list.filter((p) => p.index < i && liveText(p) !== undefined)] as const
      )
        .filter(([, list]) => list.length > 0);
      const chosen = new Map<string, Producer>();
      for (const [value, list] of mine) {
        const changed = list.find((p) => liveText(p) !== value);
        if (changed) chosen.set(value, changed);
      }
      const base = snapshot(step);
      let repairs = apply(step, chosen);
      let outcome = await run(i);
      if (!outcome.sent) {
        report.notSent.push({ step: step.name, host: outcome.host });
        remark(step, `not sent: its host ${outcome.host} is not the API's`);
        continue;
      }
      let tries = 0;
      if (!passes(outcome.result)) {
        const proactive = snapshot(step);
        const first = outcome;
        let kept = false;
        for (const candidate of candidates(mine, chosen, liveText)) {
          if (tries >= MAX_TRIES_PER_STEP || runs >= MAX_VERIFY_RUNS) break;
          restore(step, base);
          const tried = apply(step, candidate);
          tries++;
          outcome = await run(i);
          if (outcome.sent && passes(outcome.result)) {
            repairs = tried;
            kept = true;
            break;
          }
        }
        if (!kept) {
          restore(step, proactive);
          outcome = first;
        }
      }
      for (const text of repairs) {
        report.repairs.push({ step: step.name, text });
        remark(step, text);
      }
      if (!outcome.sent) continue;
      if (passes(outcome.result)) {
        report.passed++;
        remember(i, outcome.captured);
        continue;
      }
      const message = session.mask(outcome.result.message ?? outcome.result.status).slice(0, 240);
      report.failed.push({ step: step.name, tries, message });
      remark(step, `could not make this step pass (${plural(tries, "try", "tries")}): ${message}`);
    }
  } finally {
    report.requests = session.requests;
    session.close();
  }
  dropUnusedVariables(c);
  c.notes.push(verifiedNote(report));
  return report;
}

/** Other producers to try for a step that does not pass: one value changed at a time. */
function* candidates(
  mine: readonly (readonly [string, Producer[]])[],
  chosen: ReadonlyMap<string, Producer>,
  liveText: (p: Producer) => string | undefined,
): Generator<Map<string, Producer>> {
  for (const [value, list] of mine) {
    const current = chosen.get(value);
    const seen = new Set([current ? liveText(current) : value]);
    // The latest response first: a value handed out again is most often handed out anew.
    for (const p of [...list].reverse()) {
      const v = liveText(p);
      if (v === undefined || seen.has(v)) continue;
      seen.add(v);
      yield new Map([...chosen, [value, p]]);
    }
  }
}

/** A step passed, probes aside: a probe that finds nothing is no failure of the step. */
function passes(result: StepResult): boolean {
  if (result.status === "passed") return true;
  return result.status === "failed" && result.failure_kind === "capture" &&
    (result.capture_failures ?? []).every((f) => f.name.startsWith(PROBE));
}

/**
 * For each recorded value that a response handed out and a later request
 * sent back, the responses that handed it out before any request sent it.
 */
function producersOf(c: Correlator, sent: string[]): Map<string, Producer[]> {
  const out = new Map<string, Producer[]>();
  c.steps.forEach((step, index) => {
    for (const handed of handedOut(step.last)) {
      const { value } = handed;
      const forms = [value, encodeURIComponent(value)];
      const has = (text: string) => forms.some((f) => text.includes(f));
      if (!sent.slice(index + 1).some(has)) continue;
      const list = out.get(value) ?? [];
      // A value the client sent before any response handed it out was not handed out here (an
      // echo); once a response handed it out, a later one that holds it hands it out again.
      if (list.length === 0 && sent.slice(0, index + 1).some(has)) continue;
      if (list.some((p) => p.index === index)) continue;
      const source: Source = handed.source.kind === "json"
        ? { kind: "json", path: c.stablePath(step, handed.source.path) }
        : handed.source;
      list.push({ index, handed, source });
      out.set(value, list);
    }
  });
  return out;
}

function remark(step: Step, text: string): void {
  (step.remarks ??= []).push(`verify: ${text}`);
}

/** A required variable no step reads any more (its value is now captured) is not asked for. */
function dropUnusedVariables(c: Correlator): void {
  const text = JSON.stringify(
    c.steps.map((s) => [s.url, s.headers, s.body, s.form, s.multipart]),
  ) + JSON.stringify(c.vars);
  for (const [name, v] of [...c.env]) {
    if (
      v.fallback === undefined && !text.includes(JSON.stringify(c.sp.envRef(name)).slice(1, -1))
    ) {
      c.env.delete(name);
    }
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function verifiedNote(r: VerifyReport): string {
  const open = r.steps - r.passed;
  return `Verified against ${r.baseUrl} with --verify: ${plural(r.repairs.length, "repair")}${
    open > 0 ? `; ${plural(open, "step")} not passing or not sent` : ", every step passes"
  } (see the "verify:" comments).`;
}

/**
 * The summary's lines about a verification.
 *
 * @example
 * ```ts
 * import { formatVerify } from "./verify.ts";
 * const text = formatVerify({ baseUrl: "http://127.0.0.1:8080", steps: 3, passed: 3, requests: 3,
 *   repairs: [{ step: "get_order", text: "sends ${steps.create_order.capture.id}: …" }],
 *   failed: [], notSent: [], unverified: [] });
 * if (!text.startsWith("Verified 3 steps against http://127.0.0.1:8080: all pass after 1 repair.")) throw new Error(text);
 * ```
 */
export function formatVerify(r: VerifyReport): string {
  const open = r.steps - r.passed;
  const lines = [
    open === 0
      ? `Verified ${plural(r.steps, "step")} against ${r.baseUrl}: all pass${
        r.repairs.length > 0 ? ` after ${plural(r.repairs.length, "repair")}` : ""
      }.`
      : `Verified ${
        plural(r.steps, "step")
      } against ${r.baseUrl}: ${r.passed} pass, ${open} do not (${
        plural(r.repairs.length, "repair")
      }, ${plural(r.requests, "request")}).`,
  ];
  for (const x of r.repairs) lines.push(`verify: repaired "${x.step}": ${x.text}`);
  for (const x of r.failed) {
    lines.push(
      `verify: could not make "${x.step}" pass (${plural(x.tries, "try", "tries")}): ${x.message}`,
    );
  }
  for (const x of r.notSent) {
    lines.push(
      `verify: not sent "${x.step}": its host ${x.host} is not the API's (the --verify URL, or a BASE_URL_n set in the environment).`,
    );
  }
  for (const name of r.unverified) {
    lines.push(
      `verify: not verified "${name}": the bound of ${MAX_VERIFY_RUNS} step runs was reached.`,
    );
  }
  return lines.join("\n") + "\n";
}
