/**
 * How much of each body the HAR keeps: the detail budget of the other
 * reports. The run's first {@linkcode DETAILED_FAILURES} bodies longer than
 * {@linkcode SMALL_BODY} keep up to {@linkcode MAX_BODY} characters, later
 * ones {@linkcode SMALL_BODY}, so a run of thousands of large responses
 * writes a HAR of bounded size per entry.
 *
 * @module
 */
import { DETAILED_FAILURES, MAX_BODY, SMALL_BODY } from "../run/context.ts";

/** A body as kept: its text, and a comment when it was cut. */
export interface KeptBody {
  text: string;
  /** Says the body was cut, and where; absent for a whole body. */
  comment?: string;
}

/**
 * The run's budget of large bodies.
 *
 * @example
 * ```ts
 * import { BodyBudget } from "./har_budget.ts";
 * const budget = new BodyBudget(1);
 * const big = "x".repeat(5000);
 * if (budget.keep(big, 5000).text !== big) throw new Error("the first is whole");
 * const second = budget.keep(big, 5000);
 * if (second.text.length !== 2048 || !second.comment?.includes("2048")) throw new Error(second.comment);
 * if (budget.keep("short", 5).comment !== undefined) throw new Error();
 * ```
 */
export class BodyBudget {
  /** `large` bodies longer than {@linkcode SMALL_BODY} are kept up to {@linkcode MAX_BODY}. */
  constructor(private large = DETAILED_FAILURES) {}

  /** `text` within the budget; `size` is the whole body's size in bytes. */
  keep(text: string, size: number): KeptBody {
    let limit = SMALL_BODY;
    if (text.length > SMALL_BODY && this.large > 0) {
      this.large--;
      limit = MAX_BODY;
    }
    // The run cut it at MAX_BODY already when its bytes outnumber its characters there.
    const cutBefore = text.length >= MAX_BODY && size > text.length;
    if (text.length <= limit && !cutBefore) return { text };
    const kept = Math.min(limit, text.length);
    return {
      text: text.slice(0, kept),
      comment: `The body was cut at ${kept} characters by the report's detail budget; ` +
        `its whole size is ${size} bytes.`,
    };
  }
}
