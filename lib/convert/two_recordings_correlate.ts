/**
 * The correlating stage when a second recording of the journey is at hand:
 * the single-recording correlator, with each of its guesses replaced by the
 * second recording's evidence ({@linkcode Evidence}). A value sent equal in
 * both is a constant, even when shaped like a fresh id or named like a token;
 * a value that differs is captured from an earlier response that produced it
 * in both recordings, else made fresh when the client generated it, else
 * read from a variable.
 *
 * @module
 */
import { isSecretName } from "../secrets/mod.ts";
import {
  correlate,
  freshUuid,
  headers,
  produce,
  producerFor,
  stringValue,
  type Where,
  withTokens,
} from "./correlate/mod.ts";
import { emptyCorrelator } from "./correlate/state.ts";
import { seedFromDropped } from "./dropped_evidence.ts";
import type { HarRecord } from "./har_model.ts";
import type { JsonPath, Producer, Step } from "./model.ts";
import { safeDecode, valueKey, walk } from "./json.ts";
import { envName } from "./names.ts";
import { pageValues } from "./pages.ts";
import { isSecretShaped, looksLikeToken } from "./values.ts";
import type { Group } from "./polls.ts";
import { alignRecords, Evidence } from "./two_recordings.ts";
import { differsByClock, freshFrom } from "./fresh_from.ts";
import { unfallbackable } from "./two_recordings_fallback.ts";
import { isClockReading } from "./two_recordings_time.ts";
import { judgedHeader } from "./two_recordings_header.ts";
import { typedData } from "./two_recordings_typed.ts";
import { prefilledMadeProducer } from "./correlate/prefilled_made.ts";
import { differsByProduced } from "./two_recordings_produced.ts";
import { pageMade } from "./two_recordings_nonce.ts";
import { toldByOtherForm } from "./har_no_pairs.ts";
import { isHeldByUser } from "./held_names.ts";
import {
  decide,
  type Decision,
  judged,
  oneValueARun,
  type TwoRecordingsCorrelator,
} from "./two_recordings_judge.ts";

export type { Decision, TwoRecordingsCorrelator } from "./two_recordings_judge.ts";

/**
 * A fresh correlation of the first recording, its rules overruled by
 * `evidence`.
 *
 * @example
 * ```ts
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * if (t.decisions.size !== 0 || t.rules.producerFor("x") !== undefined) throw new Error();
 * ```
 */
export function newTwoRecordingsCorrelator(
  spelling: "a" | "b",
  evidence: Evidence,
): TwoRecordingsCorrelator {
  const t: TwoRecordingsCorrelator = {
    ...emptyCorrelator(spelling, true),
    evidence,
    decisions: new Map(),
    unconfirmed: 0,
  };
  t.rules = {
    producerFor: (value) => twoProducerFor(t, value),
    stringValue: (key, value, step, where) => twoStringValue(t, key, value, step, where),
    freshUuid: (key, value) => twoFreshUuid(t, key, value),
    headers: (r, step) => twoHeaders(t, r, step),
    produce: (step) => twoProduce(t, step),
  };
  return t;
}

function twoProducerFor(t: TwoRecordingsCorrelator, value: unknown): Producer | undefined {
  const p = producerFor(t, value);
  if (p && t.evidence.isDynamic(value)) decide(t, value, "capture");
  return p;
}

function twoStringValue(
  t: TwoRecordingsCorrelator,
  key: string,
  value: string,
  step: Step,
  where: Where,
): string {
  if (t.producers.has(valueKey(value)) || t.generated.has(value)) {
    return stringValue(t, key, value, step, where);
  }
  const named = isSecretName(key) || t.passwordFields.has(key) ||
    /^(code|code_verifier)$/.test(key);
  if (named && appConstant(t, key, value)) {
    decide(t, value, "constant");
    return withTokens(t, value, step);
  }
  // Equal in both recordings here: not differing here, however it differs elsewhere.
  const other = t.evidence.isEqualAt(step.first, key, value)
    ? undefined
    : t.evidence.counterpart(value);
  // Differing only by what each session's answers produced, or a write made it: a capture.
  if (capturedAsInOne(t, key, value, other, step, where)) {
    decide(t, value, "capture");
    return stringValue(t, key, value, step, where);
  }
  if (
    typeof other === "string" &&
    (!named || typedData(t, key, value, other) || pageMade(t, key, value, other, step.first))
  ) return differing(t, key, value, other, step, where);
  return judged(t, value, stringValue(t, key, value, step, where));
}

/**
 * Whether a secret-named value both sessions sent equal, as a word, is the app's constant
 * (`X-Atlassian-Token: no-check`). Shaped like a secret (`signature=sig-AbC123…`) it is a
 * credential, however equal; so is what a user holds by its name, and what a page's password
 * input took (`pword=admin`), however plain: one account recorded twice.
 */
function appConstant(t: TwoRecordingsCorrelator, key: string, value: string): boolean {
  return t.evidence.isConstant(value) && !isHeldByUser(key) && !t.passwordFields.has(key) &&
    !isSecretShaped(value);
}

/**
 * Whether a value is captured as one recording captures it: it differs only by what each session's
 * answers produced, or a write made it and the form's page prefilled it (prefilled_made.ts).
 */
function capturedAsInOne(
  t: TwoRecordingsCorrelator,
  key: string,
  value: string,
  other: unknown,
  step: Step,
  where: Where,
): boolean {
  if (differsByProduced(t, value, other)) return true;
  return where.body && t.linking && prefilledMadeProducer(t, key, value, step) !== undefined;
}

/** A value the second recording sent otherwise: fresh when it can be made, else a variable. */
function differing(
  t: TwoRecordingsCorrelator,
  key: string,
  value: string,
  other: string,
  step: Step,
  where: Where,
): string {
  // The page's clock, whole or inside longer text: sent as recorded, neither random hex nor a
  // variable to ask for.
  if (isClockReading(value, other) || differsByClock(value, other)) return t.sp.lit(value);
  // Random of one shape in both, the page's own (two_recordings_nonce.ts): one of that shape.
  const fresh = pageMade(t, key, value, other, step.first) ?? freshFrom(value, other);
  if (fresh) {
    decide(t, value, "fresh");
    t.replaced.generated++;
    if (fresh.startsWith("${RANDOM.UUID}")) return t.rules.freshUuid(key, value);
    return oneValueARun(t, key, value, fresh);
  }
  // A document a fallback cannot hold is sent as recorded, what answers produced in it captured
  // as one recording captures them (a page's open tabs naming the note just made).
  if (unfallbackable(t, value, `"${key}" sent by step "${step.name}"`)) {
    return stringValue(t, key, value, step, where);
  }
  decide(t, value, "variable");
  const env = envName(`${step.name}_${key || "value"}`);
  t.env.set(env, {
    about: `"${key}" differs between the two recordings and no response produced it`,
    fallback: value,
  });
  return t.sp.envRef(env, t.sp.lit(value));
}

/** A UUID no response held: fresh when the recordings differ, a constant when equal. */
function twoFreshUuid(t: TwoRecordingsCorrelator, key: string, value: string): string {
  if (t.evidence.isConstant(value)) {
    decide(t, value, "constant");
    return t.sp.lit(value);
  }
  return judged(t, value, freshUuid(t, key, value));
}

function twoHeaders(t: TwoRecordingsCorrelator, r: HarRecord, step: Step): [string, string][] {
  // A secret-named header both sessions sent equal as a word (`X-Atlassian-Token: no-check`):
  // the app's constant, sent as recorded. A value shaped like a secret (`x-auth-token:
  // tok-9f8e…`) that no response produced is a credential the user holds, however equal:
  // equality is no evidence either way for it.
  const constant = r.headers.filter((h) =>
    !isHeldByUser(h.name) && t.evidence.isConstant(h.value) && !isSecretShaped(h.value) &&
    (isSecretName(h.name) || /csrf|xsrf/i.test(h.name)) && !t.producers.has(valueKey(h.value))
  );
  // Words typed differently under a secret-looking header name, or a nonce the page made: sent
  // as recorded here, then judged below as any differing header is (fresh, or a variable).
  const typed = r.headers.filter((h) => {
    const other = t.evidence.counterpart(h.value);
    return isSecretName(h.name) && typeof other === "string" && !constant.includes(h) &&
      !t.producers.has(valueKey(h.value)) &&
      (typedData(t, h.name, h.value, other) || !!pageMade(t, h.name, h.value, other, r));
  });
  const saved = r.headers;
  r.headers = r.headers.filter((h) => !constant.includes(h) && !typed.includes(h));
  let out: [string, string][];
  try {
    out = headers(t, r, step);
  } finally {
    r.headers = saved;
  }
  for (const h of constant) {
    decide(t, h.value, "constant");
    out.push([h.name.toLowerCase(), t.sp.lit(h.value)]);
  }
  for (const h of typed) out.push([h.name.toLowerCase(), t.sp.lit(h.value)]);
  return out.map(([name, template]) => [name, judgedHeader(t, r, saved, name, template)]);
}

/**
 * Also a producer: any value of a response that a later request sends and
 * the second recording sent otherwise, when the partner response holds
 * the second value at the same place (evidence, whatever the value's shape).
 */
function twoProduce(t: TwoRecordingsCorrelator, step: Step): void {
  produce(t, step);
  const r = step.last;
  forgetConstantTokens(t, r);
  const partner = t.evidence.partner.get(r);
  const add = (value: unknown, producer: Producer, confirmed: boolean) =>
    addConfirmed(t, value, producer, confirmed);
  for (const c of r.setCookies) {
    const theirs = partner?.setCookies.find((p) => p.name === c.name)?.value;
    const confirmed = theirs !== undefined && theirs === t.evidence.counterpart(c.value);
    add(c.value, { step, source: { kind: "cookie", name: c.name }, secret: true }, confirmed);
  }
  if (r.responseText !== undefined && /html/.test(r.mimeType)) {
    const theirs = partner?.responseText ? pageValues(partner.responseText) : [];
    for (const v of pageValues(r.responseText)) {
      const other = theirs.find((o) => o.name === v.name && o.pattern === v.pattern)?.value;
      add(v.value, {
        step,
        source: { kind: "regex", name: v.name, pattern: v.pattern },
        secret: v.secret,
      }, other !== undefined && other === t.evidence.counterpart(v.value));
    }
  }
  if (!r.hasJson) return;
  walk(r.json, (path, key, leaf) => {
    const confirmed = partner?.hasJson === true &&
      valueKey(at(partner.json, path)) === valueKey(t.evidence.counterpart(leaf));
    add(
      leaf,
      { step, source: { kind: "json", path }, secret: looksLikeToken(key, leaf) },
      confirmed,
    );
  });
}

/**
 * A token is what the server issued one session; a token-named value the
 * other session was handed too (a table's name under `foreign_key_table`) is
 * the API's data: still captured where sent, never masked. What a user
 * holds (an API key shown in the settings) stays a secret: equality is no
 * evidence either way for it.
 */
function forgetConstantTokens(t: TwoRecordingsCorrelator, r: HarRecord): void {
  if (!r.hasJson) return;
  walk(r.json, (_path, key, leaf) => {
    if (
      typeof leaf === "string" && t.secrets.has(leaf) && looksLikeToken(key, leaf) &&
      !isHeldByUser(key) && t.evidence.isConstant(leaf)
    ) t.secrets.delete(leaf);
  });
}

/** Makes `producer` the source of a dynamic value no response produced yet, if confirmed. */
function addConfirmed(
  t: TwoRecordingsCorrelator,
  value: unknown,
  producer: Producer,
  confirmed: boolean,
): void {
  const k = valueKey(value);
  if (t.producers.has(k) || t.sentSeen.has(k) || !t.evidence.isDynamic(value)) return;
  if (!confirmed) {
    t.unconfirmed++;
    return;
  }
  t.producers.set(k, producer);
  if (producer.secret && typeof value === "string") {
    t.tokens.push([value, producer]);
    t.secrets.add(value);
  }
}

/** Whether an answer produced `k` (`string:2205`), or the number it spells (`{"id": 2205}`). */
function produced(c: TwoRecordingsCorrelator, k: string): boolean {
  const text = k.slice(k.indexOf(":") + 1);
  return c.producers.has(k) || (/^\d{1,15}$/.test(text) && c.producers.has(valueKey(+text)));
}

function at(value: unknown, path: JsonPath): unknown {
  let node = value;
  for (const p of path) {
    if (typeof node !== "object" || node === null || typeof p === "object") return undefined;
    node = (node as Record<string | number, unknown>)[p];
  }
  return node;
}

/** What the second recording decided, for the summary. */
export interface TwoRecordingsSummary {
  /** Entries of the first and the second recording's API traffic paired. */
  aligned: number;
  /** Requests of the first recording with no partner in the second (`METHOD /path`). */
  onlyFirst: string[];
  /** Requests of the second recording with no partner in the first (`METHOD /path`). */
  onlySecond: string[];
  /** Distinct values decided by each rule. */
  decided: Record<Decision, number>;
  /** Values that differ but were sent as recorded (inside free text, say). */
  undecided: number;
}

/**
 * Correlates the first recording's steps with the second recording's
 * evidence; `second` is the second recording's API traffic, `all` every
 * record of the first (its scripts among them).
 *
 * @example
 * ```ts
import { correlateTwo } from "./two_recordings_correlate.ts";
 * import { loadBodies } from "./har_bodies.ts";
 * import { parseHar } from "./har_model.ts";
 * const records = (uuid: string) => {
 *   const { records } = parseHar(JSON.stringify({ log: { entries: [{
 *     request: { method: "GET", url: `https://a.test/tenants/0b9c8f1e-3a52-4c1e-9d7e-2f0a4b6c8d10/items?rid=${uuid}` },
 *     response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 *   }] } }), []);
 *   loadBodies(records, []);
 *   return records;
 * };
 * const a = records("6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912");
 * const { c, summary } = correlateTwo(a, records("1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6"), a.map((r) => ({ records: [r] })), "a");
 * if (c.steps[0].url !== "${vars.base_url}/tenants/0b9c8f1e-3a52-4c1e-9d7e-2f0a4b6c8d10/items?rid=${RANDOM.UUID}") throw new Error(c.steps[0].url);
 * if (summary.decided.constant !== 1 || summary.decided.fresh !== 1) throw new Error(JSON.stringify(summary));
 * ```
 */
export function correlateTwo(
  first: HarRecord[],
  second: HarRecord[],
  groups: Group[],
  spelling: "a" | "b",
  all: readonly HarRecord[] = first,
): { c: TwoRecordingsCorrelator; summary: TwoRecordingsSummary; withdrawn: string[] } {
  const alignment = alignRecords(first, second);
  // An empty body chrome-har could not tell ({} or []): the other form's text at that place says.
  const withdrawn = toldByOtherForm(alignment.pairs);
  const evidence = new Evidence(alignment);
  const c = newTwoRecordingsCorrelator(spelling, evidence);
  // What the first recording's dropped records say, as for one recording.
  seedFromDropped(c, all, first);
  correlate(first, groups, spelling, true, c);
  const decided = { constant: 0, capture: 0, fresh: 0, variable: 0, credential: 0 };
  for (const d of c.decisions.values()) decided[d]++;
  // A differing value no rule wrote: sent as recorded (free text, a header the flow drops).
  const sent = new Set<string>();
  for (const s of c.steps) {
    // A segment the flow captures from a page's link (linked_paths.ts) is not sent as recorded.
    for (const part of s.first.url.pathname.split("/")) {
      if (s.url.includes(part)) sent.add(valueKey(safeDecode(part)));
    }
    for (const [, v] of s.first.url.searchParams) sent.add(valueKey(v));
  }
  let undecided = 0;
  for (const k of evidence.differs.keys()) {
    if (sent.has(k) && !c.decisions.has(k) && !produced(c, k)) undecided++;
  }
  const shape = (r: HarRecord) => `${r.method} ${r.url.pathname}`;
  return {
    c,
    summary: {
      aligned: alignment.pairs.length,
      onlyFirst: alignment.onlyA.map(shape),
      onlySecond: alignment.onlyB.map(shape),
      decided,
      undecided,
    },
    withdrawn,
  };
}
