/**
 * One step as the items of an Artillery scenario's `flow`: a processor call
 * first when its request reads fresh random values, a `think` for its
 * delay, then the request with its captures and expectations. What of the
 * step Artillery does not do is noted, and those notes become the comment
 * above its request.
 *
 * @module
 */
import type { Flow, Step, StepOptions } from "../model/flow.ts";
import { type ArtilleryCapture, artilleryCapture } from "./captures.ts";
import { attachChecks, expectationsOf } from "./expect.ts";
import type { FlowItem } from "./flow_item.ts";
import { includeItems } from "./include.ts";
import { pollItem } from "./poll.ts";
import { requestFields } from "./request.ts";
import { note, type Place } from "./scope.ts";

export type { FlowItem } from "./flow_item.ts";

/** Options of a step Artillery has no per-request counterpart for. */
const UNSUPPORTED_OPTIONS: (keyof StepOptions)[] = [
  "timeoutMs",
  "retry",
  "insecure",
  "caCerts",
  "clientCert",
  "proxy",
  "noProxy",
];

/** Notes for what of the step's shape (condition, foreach, options) is not expressed. */
function shapeNotes(step: Step, options: StepOptions, place: Place): void {
  if (step.when?.length) note(place, "its if: condition is not expressed: it is always sent");
  if (step.foreach) note(place, "its foreach is not expressed: it is sent once");
  for (const option of UNSUPPORTED_OPTIONS) {
    if (options[option] !== undefined) note(place, `option ${option} is not expressed`);
  }
  if (options.cookieJar === false) {
    note(place, "cookie_jar: false is not expressed (Artillery keeps cookies)");
  }
}

/**
 * The flow items of one step of `flow`.
 *
 * @example
 * ```ts
 * import { stepItems } from "./step.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const step = { name: "s", line: 1, column: 1, captures: [], dependsOn: [], assert: { paths: [] },
 *   request: { method: "GET", url: { source: "http://x.test/", parts: ["http://x.test/"] }, headers: [] } };
 * const items = stepItems(step, { file: "f.yaml", name: "f", vars: [], steps: [step] }, place);
 * if (!("get" in items[0].item)) throw new Error(JSON.stringify(items));
 * ```
 */
export function stepItems(step: Step, flow: Flow, place: Place): FlowItem[] {
  place.step = step.name;
  const notesBefore = place.scope.notes.length;
  // Fresh values and URL-encoded ones are made by the processor just before the request.
  const madeBefore = place.scope.fresh.size + place.scope.encoded.size;
  const options = { ...flow.options, ...step.options };
  shapeNotes(step, options, place);
  if (step.include) {
    const notes = place.scope.notes.slice(notesBefore).map((n) => `flowrun export: ${n.what}`);
    const items = includeItems(step, place, stepItems);
    items[0]?.comments.unshift(...notes);
    return items;
  }
  const fields = requestFields(step, step.auth ?? flow.auth, place);
  const captures = step.captures.map((c) => artilleryCapture(c, place))
    .filter((c): c is ArtilleryCapture => c !== undefined);
  // A polling step's checks read its last response only: the processor makes them.
  const expected = expectationsOf(step.assert, place, step.loop !== undefined);
  const request = { name: `${place.prefix ?? ""}${step.name}`, ...fields };
  attachChecks(request, captures, expected);
  let items: FlowItem[] = [];
  if (place.scope.fresh.size + place.scope.encoded.size > madeBefore) {
    items.push({ comments: [], item: { function: "flowrunBefore" } });
  }
  items.push({ comments: [], item: { [step.request.method.toLowerCase()]: request } });
  if (step.loop) items = [{ comments: [], item: pollItem(step, items, place) }];
  if (options.delayMs) items.unshift({ comments: [], item: { think: options.delayMs / 1000 } });
  items.at(-1)!.comments = place.scope.notes.slice(notesBefore).map((n) =>
    `flowrun export: ${n.what}`
  );
  return items;
}
