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
import { correlate, Correlator } from "./correlate.ts";
import type { HarRecord } from "./har_model.ts";
import { type JsonPath, type Producer, safeDecode, type Step, valueKey, walk } from "./model.ts";
import { envName } from "./names.ts";
import { pageValues } from "./pages.ts";
import { isUuid, looksLikeToken } from "./values.ts";
import type { Group } from "./polls.ts";
import { alignRecords, Evidence } from "./two_recordings.ts";

/** How each value the two recordings decided was written. */
export type Decision = "constant" | "capture" | "fresh" | "variable" | "credential";

/**
 * Names of what a user holds (a password, an API key, a bearer token): equal
 * in every recording by nature, so equality says nothing about their being
 * secret; they stay variables.
 */
const HELD_BY_USER =
  /pass|pwd|secret|private|api[-_]?key|^authorization$|^proxy-authorization$|^cookie$|credential|otp|pin$/i;

/**
 * Whether `value` can be made fresh on each run from its two recorded
 * forms: a UUID, hex of one length, or text that differs only in a run of
 * letters and digits (a timestamp, a counter, a random suffix).
 *
 * @example
 * ```ts
 * import { freshFrom } from "./two_recordings_correlate.ts";
 * if (freshFrom("3fdb4b89f0f8a28eefa3034c6e4451e6", "eebeb964d157dc8d6a16f1ceb6fb3247") !== "${RANDOM.HEX_32}") throw new Error();
 * if (freshFrom("draft-1732100", "draft-1732999") !== "draft-${RUN_ID}") throw new Error();
 * if (freshFrom("Alice", "Bob") !== undefined) throw new Error();
 * ```
 */
export function freshFrom(a: string, b: string): string | undefined {
  if (isUuid(a) && isUuid(b)) return "${RANDOM.UUID}";
  if (/^[0-9a-f]+$/i.test(a) && /^[0-9a-f]+$/i.test(b) && a.length === b.length && a.length >= 8) {
    return `\${RANDOM.HEX_${a.length}}`;
  }
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (
    end < a.length - start && end < b.length - start && a.at(-1 - end) === b.at(-1 - end)
  ) end++;
  const middleA = a.slice(start, a.length - end);
  const middleB = b.slice(start, b.length - end);
  if (!/^[A-Za-z0-9]{1,64}$/.test(middleA) || !/^[A-Za-z0-9]{1,64}$/.test(middleB)) {
    return undefined;
  }
  // Only a run with digits in it is generated; different words are different data.
  if (!/\d/.test(middleA + middleB)) return undefined;
  // Widen to the whole alphanumeric run, so `draft-17` / `draft-19` gives `draft-${RUN_ID}`.
  while (start > 0 && /[A-Za-z0-9]/.test(a[start - 1])) start--;
  while (end > 0 && /[A-Za-z0-9]/.test(a[a.length - end])) end--;
  const escape = (t: string) => t.replaceAll("${", "$${");
  return `${escape(a.slice(0, start))}\${RUN_ID}${escape(a.slice(a.length - end))}`;
}

/** The single-recording correlator, overruled where the second recording gives evidence. */
export class TwoRecordingsCorrelator extends Correlator {
  /** Each value the evidence decided, by {@linkcode valueKey}. */
  readonly decisions = new Map<string, Decision>();
  /** Differing values captured without a partner response to confirm them. */
  unconfirmed = 0;

  constructor(spelling: "a" | "b", readonly evidence: Evidence) {
    super(spelling);
  }

  private decide(value: unknown, decision: Decision): void {
    this.decisions.set(valueKey(value), decision);
  }

  /** Records how the single-recording rules wrote a value the evidence speaks about. */
  private judged(value: unknown, template: string): string {
    const k = valueKey(value);
    if (this.decisions.has(k) || template === this.sp.lit(String(value))) return template;
    if (this.evidence.isDynamic(value)) {
      this.decide(
        value,
        /\$\{steps\./.test(template)
          ? "capture"
          : /\$\{(RANDOM|RUN_ID|vars\.)/.test(template)
          ? "fresh"
          : "variable",
      );
    } else if (this.evidence.isConstant(value) && /\$\{(ENV\.|[A-Z])/.test(template)) {
      this.decide(value, "credential");
    }
    return template;
  }

  override producerFor(value: unknown): Producer | undefined {
    const p = super.producerFor(value);
    if (p && this.evidence.isDynamic(value)) this.decide(value, "capture");
    return p;
  }

  override stringValue(
    key: string,
    value: string,
    step: Step,
    where: { body: boolean; mutating: boolean; login: boolean; credentials: boolean },
  ): string {
    if (this.producers.has(valueKey(value)) || this.generated.has(value)) {
      return super.stringValue(key, value, step, where);
    }
    const named = isSecretName(key) || /^(code|code_verifier)$/.test(key);
    if (this.evidence.isConstant(value) && named && !HELD_BY_USER.test(key)) {
      // Named like a token, yet both sessions sent it: the app's constant, not a secret.
      this.decide(value, "constant");
      return this.withTokens(value, step);
    }
    const other = this.evidence.counterpart(value);
    if (typeof other === "string" && !named) {
      const fresh = freshFrom(value, other);
      if (fresh) {
        this.decide(value, "fresh");
        this.replaced.generated++;
        if (fresh.startsWith("${RANDOM.UUID}")) return this.freshUuid(key, value);
        this.generated.set(value, fresh);
        return fresh;
      }
      this.decide(value, "variable");
      const env = envName(`${step.name}_${key || "value"}`);
      this.env.set(env, {
        about: `"${key}" differs between the two recordings and no response produced it`,
        fallback: value,
      });
      return this.sp.envRef(env, this.sp.lit(value));
    }
    return this.judged(value, super.stringValue(key, value, step, where));
  }

  /** A UUID no response held: fresh when the recordings differ, a constant when equal. */
  override freshUuid(key: string, value: string): string {
    if (this.evidence.isConstant(value)) {
      this.decide(value, "constant");
      return this.sp.lit(value);
    }
    return this.judged(value, super.freshUuid(key, value));
  }

  override headers(r: HarRecord, step: Step): [string, string][] {
    // A secret-named header both sessions sent equal (`X-Atlassian-Token: no-check`, an app
    // key): the app's constant, sent as recorded, never a required variable.
    const constant = r.headers.filter((h) =>
      !HELD_BY_USER.test(h.name) && this.evidence.isConstant(h.value) &&
      (isSecretName(h.name) || /csrf|xsrf/i.test(h.name)) && !this.producers.has(valueKey(h.value))
    );
    const saved = r.headers;
    r.headers = r.headers.filter((h) => !constant.includes(h));
    let out: [string, string][];
    try {
      out = super.headers(r, step);
    } finally {
      r.headers = saved;
    }
    for (const h of constant) {
      this.decide(h.value, "constant");
      out.push([h.name.toLowerCase(), this.sp.lit(h.value)]);
    }
    // A header sent as recorded that the second session sent otherwise: fresh, or a variable.
    return out.map(([name, template]) => {
      const recorded = saved.find((h) => h.name.toLowerCase() === name)?.value;
      if (recorded === undefined) return [name, template];
      if (template !== this.sp.lit(recorded)) return [name, this.judged(recorded, template)];
      const other = this.evidence.counterpart(recorded);
      if (typeof other !== "string") return [name, template];
      const fresh = freshFrom(recorded, other);
      this.decide(recorded, fresh ? "fresh" : "variable");
      if (fresh) {
        this.replaced.generated++;
        return [name, fresh];
      }
      const env = envName(name.replace(/^x-/, ""));
      this.env.set(env, {
        about: `the "${name}" header differs between the two recordings`,
        fallback: recorded,
      });
      return [name, this.sp.envRef(env, this.sp.lit(recorded))];
    });
  }

  /**
   * Also a producer: any value of a response that a later request sends and
   * the second recording sent otherwise, when the partner response holds
   * the second value at the same place (evidence, whatever the value's shape).
   */
  override produce(step: Step): void {
    super.produce(step);
    const r = step.last;
    const partner = this.evidence.partner.get(r);
    const add = (value: unknown, producer: Producer, confirmed: boolean) => {
      const k = valueKey(value);
      if (this.producers.has(k) || this.sentSeen.has(k) || !this.evidence.isDynamic(value)) return;
      if (!confirmed) {
        this.unconfirmed++;
        return;
      }
      this.producers.set(k, producer);
      if (producer.secret && typeof value === "string") {
        this.tokens.push([value, producer]);
        this.secrets.add(value);
      }
    };
    for (const c of r.setCookies) {
      const theirs = partner?.setCookies.find((p) => p.name === c.name)?.value;
      const confirmed = theirs !== undefined && theirs === this.evidence.counterpart(c.value);
      add(c.value, { step, source: { kind: "cookie", name: c.name }, secret: true }, confirmed);
    }
    if (r.responseText !== undefined && /html/.test(r.mimeType)) {
      const theirs = partner?.responseText ? pageValues(partner.responseText) : [];
      for (const v of pageValues(r.responseText)) {
        const other = theirs.find((t) => t.name === v.name && t.pattern === v.pattern)?.value;
        add(v.value, {
          step,
          source: { kind: "regex", name: v.name, pattern: v.pattern },
          secret: v.secret,
        }, other !== undefined && other === this.evidence.counterpart(v.value));
      }
    }
    if (!r.hasJson) return;
    walk(r.json, (path, key, leaf) => {
      const confirmed = partner?.hasJson === true &&
        valueKey(at(partner.json, path)) === valueKey(this.evidence.counterpart(leaf));
      add(
        leaf,
        { step, source: { kind: "json", path }, secret: looksLikeToken(key, leaf) },
        confirmed,
      );
    });
  }
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
 * evidence; `second` is the second recording's API traffic.
 *
 * @example
 * ```ts
 * import { correlateTwo } from "./two_recordings_correlate.ts";
 * import { loadBodies, parseHar } from "./har_model.ts";
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
): { c: TwoRecordingsCorrelator; summary: TwoRecordingsSummary } {
  const alignment = alignRecords(first, second);
  const evidence = new Evidence(alignment);
  const c = new TwoRecordingsCorrelator(spelling, evidence);
  correlate(first, groups, spelling, true, c);
  const decided: Record<Decision, number> = {
    constant: 0,
    capture: 0,
    fresh: 0,
    variable: 0,
    credential: 0,
  };
  for (const d of c.decisions.values()) decided[d]++;
  // A differing value no rule wrote: sent as recorded (free text, a header the flow drops).
  const sent = new Set<string>();
  for (const s of c.steps) {
    for (const r of [s.first]) {
      for (const part of r.url.pathname.split("/")) sent.add(valueKey(safeDecode(part)));
      for (const [, v] of r.url.searchParams) sent.add(valueKey(v));
    }
  }
  let undecided = 0;
  for (const k of evidence.differs.keys()) {
    if (sent.has(k) && !c.decisions.has(k) && !c.producers.has(k)) undecided++;
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
  };
}
