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
 *    query value of a link in one, a cookie it set, any header but the
 *    message's own, whatever its name, a value embedded in a page)
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
 *    step then passes. A step that got no answer at all is first sent once
 *    more unchanged (`verify_resend.ts`): passing then, it needed no repair.
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
import { yamlEngine } from "../load/yaml_engine.ts";
import { pathEngine } from "../expr/path_engine.ts";
import { prepareXPath } from "../check/xpath.ts";
import type { StepResult } from "../model/result.ts";
import type { Correlator } from "./correlate/mod.ts";
import { restatePositionNote } from "./correlate/position_notes.ts";
import type { PreparedConversion } from "./har.ts";
import type { Step } from "./model.ts";
import type { LiveOutcome } from "./verify_live.ts";
import { applyRepairs } from "./verify_repair.ts";
import { apiHosts } from "./verify_hosts.ts";
import { captureByNeighbours } from "./verify_neighbours.ts";
import { UnloadableFlow } from "./verify_express.ts";
import { MAX_VERIFY_RUNS, triesText, verifiedNote, type VerifyReport } from "./verify_report.ts";
import { askedOfUser, nothingToTry, type Sent, sentBack } from "./verify_sent.ts";
import { byPosition } from "./verify_producers.ts";
import { noAnswer, sendAgain } from "./verify_resend.ts";
import {
  liveText,
  loadConverted,
  PROBE,
  type Producer,
  rememberLive,
  restore,
  runStep,
  type Snapshot,
  snapshot,
  startVerification,
  type Verification,
  type VerificationInput,
} from "./verify_state.ts";

export { formatVerify, MAX_VERIFY_RUNS, type VerifyReport } from "./verify_report.ts";

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

/** Options of {@linkcode verifyConversion}. */
export interface VerifyOptions {
  /** The live instance's base URL; default: `BASE_URL` from `env`, else the recorded origins, each at its recorded host. */
  baseUrl?: string;
  /** Reads environment variables (the variables the flow names, `BASE_URL_2`, …). */
  env: (name: string) => string | undefined;
  /** Per-request timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
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
  const { c } = prepared;
  // Loading and capturing stay synchronous: the engines they may need are loaded first.
  await Promise.all([yamlEngine.load(), pathEngine.load()]);
  splitCookieSecrets(c);
  const recordedOrigin = [...c.origins.keys()][0] ?? "";
  const baseUrl = options.baseUrl || options.env("BASE_URL") || recordedOrigin;
  const hosts = apiHosts(c, options.baseUrl, options.env);
  const report: VerifyReport = {
    baseUrl,
    steps: c.steps.length,
    passed: 0,
    repairs: [],
    failed: [],
    notSent: [],
    unverified: [],
    resent: [],
    requests: 0,
  };
  report.otherHosts = hosts.filter((h) => !URL.canParse(baseUrl) || h !== new URL(baseUrl).host);
  positionsToNeighbours(c, report);
  const v = startOrSay(prepared, {
    baseUrl,
    hosts,
    env: options.env,
    timeoutMs: options.timeoutMs,
  }, report);
  if (!v) {
    c.notes.push(verifiedNote(report));
    return report;
  }
  // An XPath check (a 207's inner statuses, multistatus.ts) needs its engine, as a run does.
  await prepareXPath([loadConverted(prepared)]);
  try {
    for (let i = 0; i < c.steps.length; i++) await verifyStep(v, i, report);
  } finally {
    report.requests = v.session.requests;
    v.session.close();
  }
  dropUnusedVariables(c);
  c.notes.push(verifiedNote(report));
  return report;
}

/** The conversion's captures by a list position find their element by its neighbours instead. */
function positionsToNeighbours(c: Correlator, report: VerifyReport): void {
  for (const step of c.steps) {
    for (const text of captureByNeighbours(c, step)) {
      report.repairs.push({ step: step.name, text });
      remark(step, text);
    }
  }
  restatePositionNote(c);
}

/** The verification started, or `undefined` with the reason in the report: the flow does not load. */
function startOrSay(
  prepared: PreparedConversion,
  input: VerificationInput,
  report: VerifyReport,
): Verification | undefined {
  try {
    return startVerification(prepared, input);
  } catch (error) {
    // The conversion's own output does not load: nothing can be sent, and that is said.
    if (!(error instanceof UnloadableFlow)) throw error;
    report.unloadable = error.problem;
    return undefined;
  }
}

/** A whole Cookie header kept as one secret would mask the cookie names a repair captures by. */
function splitCookieSecrets(c: Correlator): void {
  for (const secret of [...c.secrets]) {
    if (!/^[^=;\s]+=[^;]*(; [^=;\s]+=[^;]*)*$/.test(secret)) continue;
    c.secrets.delete(secret);
    for (const pair of secret.split("; ")) c.secrets.add(pair.slice(pair.indexOf("=") + 1));
  }
}

/**
 * Verifies step `i`: repairs it from the live values that changed, sends it,
 * tries other candidates if it does not pass, and says what came of it.
 */
async function verifyStep(v: Verification, i: number, report: VerifyReport): Promise<void> {
  const step = v.c.steps[i];
  if (v.runs >= MAX_VERIFY_RUNS) {
    report.unverified.push(step.name);
    remark(
      step,
      `not verified: the verification's bound of ${MAX_VERIFY_RUNS} step runs was reached`,
    );
    return;
  }
  const mine = sentBack(v, i);
  const asked = askedOfUser(v);
  const chosen = new Map<string, Producer>();
  for (const [value, list] of mine) {
    // A value asked of the user that a live response hands out is captured, changed or not.
    const changed = list.find((p) => liveText(v, p) !== value && !byPosition(p)) ??
      (asked.has(value) ? list.at(-1) : undefined);
    if (changed) chosen.set(value, changed);
  }
  const base = snapshot(v.c, step);
  try {
    const first = {
      repairs: applyRepairs(v, step, chosen),
      outcome: await runStep(v, i),
      tries: 0,
    };
    if (!first.outcome.sent) {
      report.notSent.push({ step: step.name, host: first.outcome.host });
      remark(step, `not sent: its host ${first.outcome.host} is not the API's`);
      return;
    }
    const done = passes(first.outcome.result)
      ? first
      : await resendOrTry(v, i, { mine, chosen, base, first });
    reportStep(v, step, i, done, report);
  } catch (error) {
    if (!(error instanceof UnloadableFlow)) throw error;
    // A repair made the flow unloadable: the step is put back as converted, and that is said.
    restore(v.c, step, base);
    sayDropped(v, step, error, report);
  }
}

/** Says that step was put back as converted: the repair it was sent with made no flow that loads. */
function sayDropped(
  v: Verification,
  step: Step,
  error: UnloadableFlow,
  report: VerifyReport,
): void {
  const why = v.session.mask(`its repair was dropped: ${error.message}`).slice(0, 240);
  const message = "not sent with a repair no flow can hold";
  report.failed.push({ step: step.name, tries: 0, message, why });
  remark(step, `could not make this step pass (${triesText(0, why)}): ${message}`);
}

/** A step's run and the repairs it was sent with. */
interface Attempt {
  repairs: string[];
  outcome: LiveOutcome;
  tries: number;
  /** Why its first send got no answer, when it passed sent again unchanged. */
  lost?: string;
}

/**
 * A step that got no answer is sent again unchanged before any candidate:
 * passing then, it needed no repair (a candidate sent then would pass too).
 */
async function resendOrTry(
  v: Verification,
  i: number,
  at: { mine: Sent; chosen: Map<string, Producer>; base: Snapshot; first: Attempt },
): Promise<Attempt> {
  const lost = at.first.outcome.sent ? noAnswer(at.first.outcome.result) : undefined;
  const again = await sendAgain(v, i, at.first.outcome);
  if (!again) return await tryCandidates(v, i, at);
  if (again.sent && passes(again.result)) return { ...at.first, outcome: again, lost };
  return await tryCandidates(v, i, { ...at, first: { ...at.first, outcome: again } });
}

/**
 * Sends step `i` again with each other candidate until one passes (kept),
 * within the bounds; none passing, the step is put back as first sent.
 */
async function tryCandidates(
  v: Verification,
  i: number,
  at: { mine: Sent; chosen: Map<string, Producer>; base: Snapshot; first: Attempt },
): Promise<Attempt> {
  const step = v.c.steps[i];
  const proactive = snapshot(v.c, step);
  let tries = 0;
  for (const candidate of candidates(at.mine, at.chosen, (p) => liveText(v, p))) {
    if (tries >= MAX_TRIES_PER_STEP || v.runs >= MAX_VERIFY_RUNS) break;
    restore(v.c, step, at.base);
    const tried = applyRepairs(v, step, candidate);
    tries++;
    const outcome = await runStep(v, i);
    if (outcome.sent && passes(outcome.result)) return { repairs: tried, outcome, tries };
  }
  restore(v.c, step, proactive);
  return { ...at.first, tries };
}

/** Says what came of a step: its repairs, and whether it passes (its live values kept). */
function reportStep(
  v: Verification,
  step: Step,
  i: number,
  { repairs, outcome, tries, lost }: Attempt,
  report: VerifyReport,
): void {
  for (const text of repairs) {
    report.repairs.push({ step: step.name, text });
    remark(step, text);
  }
  if (!outcome.sent) return;
  if (passes(outcome.result)) {
    report.passed++;
    if (lost !== undefined) {
      const message = v.session.mask(lost.replace(/\.$/, "")).slice(0, 240);
      report.resent?.push({ step: step.name, message });
      remark(step, `passed when sent again unchanged: its first send got no answer (${message})`);
    }
    rememberLive(v, i, outcome.captured);
    return;
  }
  const message = v.session.mask(outcome.result.message ?? outcome.result.status).slice(0, 240);
  const why = tries === 0 ? v.session.mask(nothingToTry(v, i)).slice(0, 240) : undefined;
  report.failed.push({ step: step.name, tries, message, ...(why ? { why } : {}) });
  remark(step, `could not make this step pass (${triesText(tries, why)}): ${message}`);
}

/** Other producers to try for a step that does not pass: one value changed at a time. */
function* candidates(
  mine: Sent,
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

function remark(step: Step, text: string): void {
  (step.remarks ??= []).push(`verify: ${text}`);
}

/**
 * A required variable no step reads any more (its value is now captured) is
 * not asked for; every part a step sends is read, its `auth:` too (a Basic
 * password is read there only).
 */
function dropUnusedVariables(c: Correlator): void {
  const text = JSON.stringify(
    c.steps.map((s) => [s.url, s.headers, s.body, s.form, s.multipart, s.auth, s.options]),
  ) + JSON.stringify(c.vars);
  for (const [name, v] of [...c.env]) {
    if (
      v.fallback === undefined && !text.includes(JSON.stringify(c.sp.envRef(name)).slice(1, -1))
    ) {
      c.env.delete(name);
    }
  }
}
