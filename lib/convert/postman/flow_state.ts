/**
 * What the flows of one conversion share while they are built (flow.ts):
 * the variables, values scripts set, who captured what, the requests a
 * `setNextRequest` skips, and the chains a set not translated breaks.
 *
 * @module
 */
import type { YNode } from "../yaml_out.ts";
import type { Variables } from "./vars.ts";
import type { Translation } from "./script/translation.ts";
import type { Kept } from "./kept_request.ts";

/** What the flows of one conversion share: variables, values set outright, who captured what. */
export interface Shared {
  vars: Variables;
  /** Values scripts set outright (Newman keeps them for the rest of the run). */
  literals: Map<string, string>;
  /** The flow (by index) whose step last captured each variable. */
  capturedBy: Map<string, number>;
  /** The flow (by index) whose script last made each variable's value (a random text, a date). */
  madeBy?: Map<string, number>;
  /** Captures kept as text (`as: string`), by flow expression: a later read is text (text_captures.ts). */
  texts?: Set<string>;
  /** Requests kept in variables (`set("req", pm.request)`) and sent again (kept_request.ts). */
  kept?: Kept;
  /** Literal origins → their environment variable. */
  origins: Map<string, string>;
  files: Set<string>;
  /** Where `setNextRequest(null)` stopped the run: later requests are not sent. */
  stop?: string;
  /** A `setNextRequest("name")` jump in progress: requests up to `target` are not sent. */
  skipTo?: { target: string; from: string; flow: number; unless?: YNode };
  /** Requests not sent because of a `setNextRequest`, by folder path. */
  notSent: string[];
  /** Requests flowrun cannot send (their method, no URL, another scheme): folder path and why. */
  unsendable: string[];
  /** Requests whose body or URL a pre-request script rewrites (request_rewrite.ts), by folder path. */
  rewritten?: string[];
  /** The distinct OAuth2 blocks: each is a token request Newman does not make. */
  tokens: Set<string>;
  /** Request names already converted (a jump back to one is a loop, not translated). */
  seen: Set<string>;
  /**
   * The variables a request or a script's getter reads anywhere in the
   * collection; when given, a capture an `if` guards is kept only for them.
   */
  read?: Set<string>;
  /** Variables a script set in a way not translated, and the later requests that read them. */
  broken: Broken[];
  /** Masks the secrets' values in script lines shown in a comment or the summary (secret_mask.ts). */
  mask?: (text: string) => string;
  /** The statement each variable was last set by in a way not translated (Translation's). */
  droppedLines?: Map<string, string>;
  /**
   * Variables a script sets to text worked out when converting from the files' values of others
   * (`from`), by request: a `--var` of those, given when running, does not reach them.
   */
  derived?: Map<string, { from: string[]; by: string }>;
  /** Variables a script sets with a random draw taken at its least, by variable: the request. */
  fixed?: Map<string, string>;
  /** The broken chains still open (no later set of the variable), by variable. */
  brokenOpen: Map<string, Broken>;
  /** Variables a script set both in a translated way and not, until set again (partly_set.ts). */
  partlyOpen?: Map<string, Broken>;
}

/** A variable a script sets in a way flowrun cannot express: the chain it starts is broken. */
export interface Broken {
  name: string;
  /** The request whose script sets it. */
  by: string;
  /** Later requests that read it before anything sets it again. */
  readers: string[];
  /** Whether the same script also set it in a way translated: the flow's value may not be Newman's. */
  partly?: boolean;
  /** The script's statement (its first line) that sets it, for the summary to name. */
  line?: string;
}

/** One request's counts, for the summary. */
export interface RequestReport {
  request: string;
  step: string;
  translated: number;
  untranslated: number;
  /** The idioms of its untranslated checks the summary names (untranslated_idioms.ts). */
  why?: string[];
}

/**
 * Keeps what a script's translation tells the summary: the statement behind each set not
 * translated, and each set worked out when converting from the files' values.
 *
 * @example
 * ```ts
 * import { keepNotes, type Shared } from "./flow_state.ts";
 * const shared = {} as Shared;
 * const set = { name: "pw2", value: "!1", kind: "text" as const, derived: ["pw"] };
 * keepNotes(shared, { sets: [set], droppedLines: new Map([["x", "x = f();"]]) }, "Reset");
 * if (shared.derived?.get("pw2")?.by !== "Reset" || shared.droppedLines?.get("x") !== "x = f();") {
 *   throw new Error();
 * }
 * ```
 */
export function keepNotes(
  shared: Shared,
  t: Pick<Translation, "sets" | "droppedLines" | "unsent">,
  by: string,
): void {
  for (const why of new Set(t.unsent)) {
    if (!shared.unsendable.includes(`${by} (${why})`)) shared.unsendable.push(`${by} (${why})`);
  }
  for (const [n, l] of t.droppedLines ?? []) (shared.droppedLines ??= new Map()).set(n, l);
  for (const s of t.sets) {
    if (s.derived) (shared.derived ??= new Map()).set(s.name, { from: s.derived, by });
    if (s.fixed) (shared.fixed ??= new Map()).set(s.name, by);
  }
}
