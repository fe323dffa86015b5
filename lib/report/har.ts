/**
 * The run as HAR 1.2 (`--report-har FILE`): every request that went on the
 * wire and what answered it, for browser devtools and `flowrun convert har`.
 * A redirect hop, a poll, a re-run's request are each an entry; a flow (a
 * data row's run too) is a page, `page_1`, `page_2`… as browsers number
 * them, titled with the flow's name, its file in `_file`. Entries are held until their flow ends and
 * then masked with every secret known then (a token a later step captures
 * is masked in the step that first showed it). With a spool they wait
 * there, masked, until the run ends and are masked again with every secret
 * of the run (a token a later flow learns is masked where an earlier flow
 * showed it, as in the other reports); without one each flow's are written
 * as it ends. The run's end writes the pages and closes the file.
 *
 * @module
 */
import type { Exchange, FlowRef, Reporter } from "../model/events.ts";
import type { FlowResult } from "../model/result.ts";
import { BodyBudget } from "./har_budget.ts";
import { type HarEntry, harEntry } from "./har_entry.ts";
import { SecretLabels } from "./har_labels.ts";
import type { Spool } from "./streamed.ts";
import type { Redactor } from "../secrets/redactor.ts";
import { noteToldSince, saidSince, toldSince } from "../secrets/said_since.ts";

/**
 * Options of {@linkcode harReporter}.
 *
 * @example
 * ```ts
 * import type { HarOptions } from "./har.ts";
 * const options: HarOptions = { write: () => Promise.resolve() };
 * if (options.redactor !== undefined) throw new Error();
 * ```
 */
export interface HarOptions {
  /** Receives the file in pieces, in order; `last` is set on the final one. */
  write: (text: string, last: boolean) => Promise<void>;
  /**
   * Masks a flow's entries when it ends, for raw events (`RunOptions.rawEvents`); with
   * `added`, each opaque secret gets a label of its own first (`har_labels.ts`).
   */
  redactor?: {
    redactValue<T>(value: T, said?: (text: string) => string): T;
    added?(): [string, readonly string[] | undefined][];
    /** With these, an entry's note is masked also by short secrets learnt since (`said_since.ts`). */
    shortAdded?: Redactor["shortAdded"];
    redactOutput?(text: string): string;
  };
  /** The clock behind a page's start (default: the current time); set in tests. */
  now?: () => Date;
  /**
   * Keeps each ended flow's masked entries until the run ends, when they are
   * masked again with every secret of the run and written: a flow's entries
   * written as it ended kept in clear a token only a later flow learnt.
   */
  spool?: Spool;
}

/** A page: one flow. */
interface Page {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
  _file: string;
}

/** A running flow's held entries, and its page. */
type Held = { entries: HarEntry[]; page: string };

/** What names a running flow: its file and its name (a data row's includes the row's). */
const keyOf = (flow: { file: string; name: string }) => `${flow.file}\0${flow.name}`;

/**
 * A reporter that writes the run as a HAR 1.2 file, whatever the run's
 * outcome; `onRunEnd` writes the last piece.
 *
 * @example
 * ```ts
 * import { harReporter } from "./har.ts";
 * let text = "";
 * const har = harReporter({ write: (t) => void (text += t) as unknown as Promise<void> });
 * const flow = { file: "a.yaml", name: "A" };
 * await har.onRunStart?.({ run_id: "r", runner_version: "1.0.0", started_at: "", files: ["a.yaml"] });
 * await har.onFlowStart?.(flow);
 * await har.onExchange?.(flow, {
 *   step: "get", attempt: 1, started_at: "2026-01-01T00:00:00.000Z", duration_ms: 3,
 *   request: { method: "GET", url: "http://api.test/", headers: [], size: 0 },
 *   response: { status: 204, headers: {}, set_cookies: [], body: "", size: 0 },
 * });
 * await har.onFlowEnd?.({ ...flow, status: "passed", started_at: "", duration_ms: 3, steps: [] });
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await har.onRunEnd?.({ run_id: "r", runner_version: "1.0.0", started_at: "", duration_ms: 3,
 *   status: "passed", totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [] });
 * const log = JSON.parse(text).log;
 * if (log.entries[0].pageref !== "page_1" || log.pages[0]._file !== "a.yaml") throw new Error(text);
 * ```
 */
export function harReporter(options: HarOptions): Reporter {
  const now = options.now ?? (() => new Date());
  const budget = new BodyBudget();
  // Held entries by flow: a re-run's join those of the runs before it.
  const held = new Map<string, Held>();
  const pages = new Map<string, Page>();
  let [version, written] = ["", 0];
  // Flows may end at once (--jobs): pieces are made in call order and written one after another.
  let writing = Promise.resolve();
  const mask = masker(options.redactor);
  const send = (text: string, last: boolean) =>
    writing = writing.then(() => options.write(text, last));
  const write = (entries: HarEntry[], flow?: object) => {
    if (entries.length === 0) return writing;
    const masked = mask(entries, flow);
    const text = masked.map((e) => `\n      ${JSON.stringify(e)}`).join(",");
    const piece = `${written === 0 ? head(version) : ","}${text}`;
    written += entries.length;
    return send(piece, false);
  };
  const { end, drain } = ended(options.spool, mask, write);
  const running = (flow: FlowRef): Held => {
    const key = keyOf(flow);
    let page = pages.get(key);
    if (!page) pages.set(key, page = pageOf(flow, `page_${pages.size + 1}`, now()));
    let entries = held.get(key);
    if (!entries) held.set(key, entries = { entries: [], page: page.id });
    return entries;
  };
  return {
    onRunStart(run) {
      version = run.runner_version;
    },
    onFlowStart(flow) {
      running(flow);
    },
    onExchange(flow: FlowRef, exchange: Exchange) {
      const { entries, page } = running(flow);
      entries.push(harEntry(exchange, page, budget));
    },
    async onFlowEnd(flow: FlowResult) {
      const key = keyOf(flow);
      const entries = held.get(key)?.entries ?? [];
      held.delete(key);
      await end(flow, entries);
    },
    async onRunEnd(result) {
      version ||= result.runner_version;
      await drain();
      // A flow whose end never came (the run stopped under it) still has its requests written.
      for (const [key, { entries }] of held) {
        held.delete(key);
        void write(entries);
      }
      const list = [...pages.values()];
      const masked = mask(list);
      await send(`${written === 0 ? head(version) : ""}${tail(masked, written === 0)}`, true);
    },
  };
}

/**
 * What becomes of an ended flow's entries: written at once, or with a spool
 * set aside masked and written when the run ends (`drain`), masked again.
 */
function ended(
  spool: Spool | undefined,
  mask: <T>(value: T, flow?: object) => T,
  write: (entries: HarEntry[], flow?: object) => Promise<void>,
) {
  // Ended flows waiting in the spool, in the order they ended.
  const spooled: FlowResult[] = [];
  const end = async (flow: FlowResult, entries: HarEntry[]) => {
    if (!spool) return await write(entries, flow);
    if (entries.length === 0) return;
    // A key of its own per end: a flow result given twice would take the place of its first piece.
    const key = { ...flow, steps: [] };
    const since = toldSince(flow);
    if (since !== undefined) noteToldSince(key, since);
    spooled.push(key);
    await spool.put(key, JSON.stringify(mask(entries, flow)));
  };
  // Read back one flow at a time, each written before the next is read: memory holds one flow's.
  const drain = async () => {
    if (!spool) return;
    try {
      for (const flow of spooled.splice(0)) {
        const text = await spool.take(flow);
        if (text !== undefined) await write(JSON.parse(text), flow);
      }
    } finally {
      await spool.close();
    }
  };
  return { end, drain };
}

/**
 * Masks a piece with every secret known now: a label per opaque one first, then as usual; the
 * notes of `flow`'s entries also by the short secrets learnt since its steps began.
 */
function masker(redactor: HarOptions["redactor"]): <T>(value: T, flow?: object) => T {
  const labels = new SecretLabels();
  return <T>(value: T, flow?: object): T => {
    if (redactor === undefined) return value;
    const secrets = redactor.added?.().map(([secret]) => secret) ?? [];
    const { shortAdded, redactOutput } = redactor;
    const said = flow && shortAdded && redactOutput
      ? saidSince(
        { shortAdded, redactOutput: (t) => redactOutput.call(redactor, t) },
        toldSince(flow),
      )
      : undefined;
    return redactor.redactValue(labels.apply(value, secrets), said);
  };
}

/** The file up to the first entry. */
function head(version: string): string {
  const creator = JSON.stringify({ name: "flowrun", version });
  return `{\n  "log": {\n    "version": "1.2",\n    "creator": ${creator},\n    "entries": [`;
}

/** The file after the last entry: the pages, one per flow. */
function tail(pages: Page[], empty: boolean): string {
  const list = pages.map((p) => `\n      ${JSON.stringify(p)}`).join(",");
  return `${empty ? "" : "\n    "}],\n    "pages": [${list}${
    pages.length ? "\n    " : ""
  }]\n  }\n}\n`;
}

function pageOf(flow: FlowRef, id: string, started: Date): Page {
  return {
    startedDateTime: started.toISOString(),
    id,
    title: flow.name,
    pageTimings: { onContentLoad: -1, onLoad: -1 },
    _file: flow.file,
  };
}
