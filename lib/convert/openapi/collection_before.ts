/**
 * The last word on a path parameter nothing else links: the collection its
 * path names right before it. Sails' blueprints address an association's
 * child as `/room/{_id}/messages/{childid}` and, under a verb,
 * `/room/{_id}/messages/add/{childid}`: `childid` names no collection of
 * its own (no create makes a `child`) and the room's create is no parent
 * of it, so the summary asked for "the childid of one that exists". The
 * segment before it (past a verb) is the noun whose create makes the item:
 * `POST /message`. Tried after every other rule, as a name is weaker
 * evidence than the document's links, listings and answers.
 *
 * @module
 */
import { singular } from "../names.ts";
import { plainName } from "./required_props.ts";
import { verbWord } from "./verb_segments.ts";

/**
 * The plain singular noun of the segment before `{param}` in `template`,
 * past one verb segment (`add`, `remove`); "" when that is a parameter or
 * the path's start.
 *
 * @example
 * ```ts
 * import { nounBefore } from "./collection_before.ts";
 * if (nounBefore("/room/{id}/messages/{childid}", "childid") !== "message") throw new Error();
 * if (nounBefore("/room/{id}/messages/add/{childid}", "childid") !== "message") throw new Error();
 * if (nounBefore("/{a}/{b}", "b") !== "" || nounBefore("/add/{id}", "id") !== "") throw new Error();
 * ```
 */
export function nounBefore(template: string, param: string): string {
  const at = template.indexOf(`{${param}}`);
  if (at < 0) return "";
  const segments = template.slice(0, at).split("/").filter((s) => s !== "");
  if (segments.length > 1 && verbWord(segments.at(-1)!)) segments.pop();
  const before = segments.length > 1 || !verbWord(segments[0] ?? "") ? segments.at(-1) : undefined;
  return before === undefined || before.startsWith("{") ? "" : plainName(singular(before));
}
