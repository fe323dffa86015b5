/**
 * The rows of recorded answers' lists that name a value (a member whose
 * string or number is the value), found by reading each answer once per
 * value asked about. A journey that reads what it made again and again (a
 * chat's room, polled beside every message) asked, for each read, for the
 * rows since the room was made; reading every answer since then anew per
 * read made the conversion quadratic in the reads. Rows that name the value
 * under the same member and hold the same members answer every later
 * question alike (which members they lack, whether they summarise), so one
 * of them is kept, with the latest answer that listed such a row.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { listsOf } from "./listed_rows.ts";

/** A row naming a value under `key`, and the latest answer (its index) that listed such a row. */
export interface NamingRow {
  key: string;
  value: string | number;
  row: Record<string, unknown>;
  at: number;
}

/** What was read for one value: answers `from` to `to` (not included), the rows found by kind. */
interface Read {
  from: number;
  to: number;
  rows: Map<string, NamingRow>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The rows naming a value in a list of JSON answers that only grows.
 *
 * @example
 * ```ts
 * import { NamingRows } from "./naming_rows.ts";
 * import type { HarRecord } from "../har_model.ts";
 * const answer = (json: unknown) => ({ hasJson: true, json }) as unknown as HarRecord;
 * const answers = [answer({ rooms: [{ name: "general" }] }), answer({ rooms: [{ name: "general", topic: "x" }] })];
 * const rows = new NamingRows(answers);
 * if (rows.since("general", 0).length !== 2 || rows.since("general", 1).length !== 1) throw new Error();
 * answers.push(answer({ rooms: [{ name: "general" }] }));
 * if (rows.since("general", 2)[0].at !== 2) throw new Error();
 * ```
 */
export class NamingRows {
  #answers: readonly HarRecord[];
  #read = new Map<string, Read>();

  /** Rows of `answers`, read as it grows. */
  constructor(answers: readonly HarRecord[]) {
    this.#answers = answers;
  }

  /**
   * A row of each kind (the member naming `name`, the row's members) that
   * an answer from index `from` on listed, at the top or two objects down.
   */
  since(name: string, from: number): NamingRow[] {
    const end = this.#answers.length;
    const read = this.#read.get(name) ?? { from: end, to: end, rows: new Map() };
    this.#read.set(name, read);
    if (from < read.from) this.#scan(name, from, read.from, read.rows);
    if (read.to < end) this.#scan(name, read.to, end, read.rows);
    read.from = Math.min(read.from, from);
    read.to = end;
    return [...read.rows.values()].filter((r) => r.at >= from);
  }

  /** Reads answers `from` to `to` for rows naming `name`, keeping the latest of each kind. */
  #scan(name: string, from: number, to: number, rows: Map<string, NamingRow>): void {
    for (let at = from; at < to; at++) {
      for (const [, list] of listsOf(this.#answers[at].json)) {
        for (const row of list) {
          if (!isObject(row)) continue;
          for (const [key, value] of Object.entries(row)) {
            if (typeof value !== "string" && typeof value !== "number") continue;
            if (String(value) !== name) continue;
            // Members as `Object.hasOwn` sees them: what a later question asks of the row.
            const kind = JSON.stringify([key, typeof value, Object.getOwnPropertyNames(row)]);
            const seen = rows.get(kind);
            if (seen === undefined || seen.at < at) rows.set(kind, { key, value, row, at });
          }
        }
      }
    }
  }
}
