/**
 * A value two recordings sent differently that no variable can default to.
 * `${ENV.X:-…}` ends at the first `}`, so a JSON document sent as one value
 * (Federated Wiki's `action={"type":"add",…}` form field, whose ids and
 * time the page makes) was cut there when the variable was unset: the
 * server got broken JSON and answered 500. Such a value is sent as the
 * first recording sent it, and a note says so.
 *
 * @module
 */

/**
 * Whether `value` cannot be a variable's recorded fallback (it holds `}`);
 * when it cannot, a note naming `what` is added to `c.notes`.
 *
 * @example
 * ```ts
 * import { unfallbackable } from "./two_recordings_fallback.ts";
 * const c = { notes: [] as string[] };
 * if (unfallbackable(c, "draft-17", "the title")) throw new Error();
 * if (!unfallbackable(c, '{"type":"add"}', "the action") || c.notes.length !== 1) throw new Error();
 * if (!unfallbackable(c, '{"type":"edit"}', "the edit")) throw new Error();
 * if (c.notes.length !== 1 || !c.notes[0].includes(": the action; the edit.")) throw new Error();
 * ```
 */
export function unfallbackable(c: { notes: string[] }, value: string, what: string): boolean {
  if (!value.includes("}")) return false;
  // One note for them all: a page that posts a document per action differs at every action.
  const at = c.notes.findIndex((n) => n.startsWith(NOTE));
  const listed = at === -1 ? "" : c.notes[at].slice(NOTE.length, c.notes[at].indexOf(TAIL));
  const note = `${NOTE}${listed === "" ? what : `${listed}; ${what}`}${TAIL}`;
  if (at === -1) c.notes.push(note);
  else c.notes[at] = note;
  return true;
}

const NOTE =
  "Sent as the first recording sent them, differing in the second and produced by no response: ";
const TAIL = '. Each holds "}", which a variable\'s fallback cannot hold.';
