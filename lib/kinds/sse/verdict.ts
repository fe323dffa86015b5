/**
 * The sentence an `sse:` step fails with when its `until` never held: the
 * path, how many events arrived, and what ended the reading. The path is the
 * flow's own text and the counts flowrun's; a note (a reconnection that
 * failed, quoting its URL; what the server answered) keeps the values it
 * quotes apart, masked where the step is told (see `told.ts`).
 *
 * @module
 */
import { around, joined, ownWords, type Told } from "../../model/told.ts";
import type { KindFailure } from "../kind.ts";

/**
 * The failed verdict of an `until` that never held.
 *
 * @example
 * ```ts
 * import { untilFailure } from "./verdict.ts";
 * import { tell, told } from "../../model/told.ts";
 * const f = untilFailure("$[?@.event == 'done']", 3, "wait", 5000);
 * if (tell(f.message) !== `until "$[?@.event == 'done']" did not hold in the 3 events that arrived within 5 s.`) {
 *   throw new Error(tell(f.message));
 * }
 * const noted = untilFailure("$[?@.x]", 1, "end", 0, told`answered ${401}.`);
 * if (!tell(noted.message).endsWith("stream (answered 401).") || noted.message.values[0] !== "401") {
 *   throw new Error(tell(noted.message));
 * }
 * ```
 */
export function untilFailure(
  until: string,
  events: number,
  stopped: "until" | "count" | "wait" | "end" | "answer",
  waitMs: number,
  note?: Told,
): KindFailure & { message: Told } {
  const arrived = events === 1 ? "the 1 event that arrived" : `the ${events} events that arrived`;
  const why = {
    until: "",
    count: ` (the "count" limit)`,
    wait: ` within ${seconds(waitMs)}`,
    end: " before the server ended the stream",
    answer: "",
  }[stopped];
  const said = ownWords(`until "${until}" did not hold in ${arrived}${why}`);
  // A note that ends a sentence of its own (an error's) ends inside the brackets without its stop.
  const more = note ? around(" (", unstopped(note), ")") : ownWords("");
  return { check: "until", message: joined(said, more, ownWords(".")) };
}

/** `5 s`, `1.5 s`, `250 ms`. */
function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** `note` without the full stop its last words end with. */
function unstopped(note: Told): Told {
  const words = [...note.words];
  words[words.length - 1] = words[words.length - 1].replace(/\.$/, "");
  return { words, values: note.values };
}
