/**
 * What a `--verify` run did and how the summary says it: the report, its
 * lines after the conversion's summary, and the note in the flow's header.
 *
 * @module
 */
import { plural } from "../_util/plural.ts";

/**
 * How many step runs one verification makes in all (first runs and tries).
 *
 * @example
 * ```ts
 * import { MAX_VERIFY_RUNS } from "./verify_report.ts";
 * if (MAX_VERIFY_RUNS !== 500) throw new Error();
 * ```
 */
export const MAX_VERIFY_RUNS = 500;

/** What a verification did, for the summary. */
export interface VerifyReport {
  /** The base URL verified against. */
  baseUrl: string;
  /**
   * The other origins' hosts steps were sent to (`--verify` alone sends every recorded origin:
   * a page's, its API's, a sign-in service's), named beside the base URL.
   */
  otherHosts?: string[];
  /** Steps in the flow. */
  steps: number;
  /** Steps that passed live. */
  passed: number;
  /** Each repair kept: the step and what it now sends. */
  repairs: { step: string; text: string }[];
  /**
   * Steps that did not pass, with how often each was tried after its first
   * run and, tried no more, why.
   */
  failed: { step: string; tries: number; message: string; why?: string }[];
  /** Steps not sent because their host is not the API's. */
  notSent: { step: string; host: string }[];
  /** Steps not sent because the verification's bound was reached. */
  unverified: string[];
  /**
   * Steps whose first send got no answer (the message says why) and that
   * passed sent again unchanged: neither repaired nor failing.
   */
  resent?: { step: string; message: string }[];
  /** Why no step could be sent at all: the converted flow does not load. */
  unloadable?: string;
  /** Requests sent in all. */
  requests: number;
}

/**
 * `3 tries`, or `0 tries: <why>`.
 *
 * @example
 * ```ts
 * import { triesText } from "./verify_report.ts";
 * if (triesText(0, "nothing to try") !== "0 tries: nothing to try" || triesText(1) !== "1 try") throw new Error();
 * ```
 */
export const triesText = (tries: number, why?: string) =>
  `${plural(tries, "try", "tries")}${why ? `: ${why}` : ""}`;

/** The base URL verified against, and the other hosts sent to: `http://a and b:8081`. */
function against(r: VerifyReport): string {
  const others = r.otherHosts ?? [];
  if (others.length === 0) return r.baseUrl;
  return `${r.baseUrl} and ${others.length > 1 ? `${others.slice(0, -1).join(", ")} and ` : ""}${
    others.at(-1)
  }`;
}

/**
 * The note a verification leaves in the flow's header.
 *
 * @example
 * ```ts
 * import { verifiedNote } from "./verify_report.ts";
 * const note = verifiedNote({ baseUrl: "http://127.0.0.1:8080", steps: 2, passed: 2, requests: 2,
 *   repairs: [], failed: [], notSent: [], unverified: [] });
 * if (!note.endsWith("every step passes (see the \"verify:\" comments).")) throw new Error(note);
 * ```
 */
export function verifiedNote(r: VerifyReport): string {
  if (r.unloadable !== undefined) {
    return `Not verified against ${r.baseUrl} with --verify: the converted flow does not load (${r.unloadable}).`;
  }
  const open = r.steps - r.passed;
  return `Verified against ${against(r)} with --verify: ${plural(r.repairs.length, "repair")}${
    open > 0 ? `; ${plural(open, "step")} not passing or not sent` : ", every step passes"
  } (see the "verify:" comments).`;
}

/**
 * The summary's lines about a verification.
 *
 * @example
 * ```ts
 * import { formatVerify } from "./verify_report.ts";
 * const text = formatVerify({ baseUrl: "http://127.0.0.1:8080", steps: 3, passed: 3, requests: 3,
 *   repairs: [{ step: "get_order", text: "sends ${steps.create_order.capture.id}: …" }],
 *   failed: [], notSent: [], unverified: [] });
 * if (!text.startsWith("Verified 3 steps against http://127.0.0.1:8080: all pass after 1 repair.")) throw new Error(text);
 * ```
 */
export function formatVerify(r: VerifyReport): string {
  if (r.unloadable !== undefined) {
    return `Not verified against ${r.baseUrl}: the converted flow does not load, so no step was sent: ${r.unloadable}\n`;
  }
  const open = r.steps - r.passed;
  const lines = [
    open === 0
      ? `Verified ${plural(r.steps, "step")} against ${against(r)}: all pass${
        r.repairs.length > 0 ? ` after ${plural(r.repairs.length, "repair")}` : ""
      }.`
      : `Verified ${plural(r.steps, "step")} against ${
        against(r)
      }: ${r.passed} pass, ${open} do not (${plural(r.repairs.length, "repair")}, ${
        plural(r.requests, "request")
      }).`,
  ];
  for (const x of r.repairs) lines.push(`verify: repaired "${x.step}": ${x.text}`);
  for (const x of r.resent ?? []) {
    lines.push(
      `verify: "${x.step}" passed when sent again unchanged: its first send got no answer (${x.message}).`,
    );
  }
  for (const x of r.failed) {
    lines.push(
      `verify: could not make "${x.step}" pass (${triesText(x.tries, x.why)}): ${x.message}`,
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
