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
import { conditionOf } from "./condition.ts";
import { foreachItem } from "./foreach.ts";
import { includeItems } from "./include.ts";
import { kindItems } from "./kind_step.ts";
import { tokenFor } from "./oauth2.ts";
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

/** Options the processor takes for the steps it connects itself. */
const KIND_OPTIONS: (keyof StepOptions)[] = ["timeoutMs", "insecure", "caCerts", "clientCert"];

/** Notes for what of the step's shape (condition, foreach, options) is not expressed. */
function shapeNotes(step: Step, options: StepOptions, place: Place): void {
  if (step.always) {
    note(
      place,
      "always: true is not expressed: after a failure, Artillery's user sends nothing more",
    );
  }
  if (step.foreach && step.include) {
    note(place, "the foreach of an include step is not expressed: it runs once");
  }
  for (const option of UNSUPPORTED_OPTIONS) {
    // A WebSocket, SSE or gRPC step's timeout bounds the processor's exchange, and its TLS
    // options are the processor's connection's (kind_tls.ts).
    const expressed = step.call !== undefined && KIND_OPTIONS.includes(option);
    if (options[option] !== undefined && !expressed) {
      note(place, `option ${option} is not expressed`);
    }
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
  const options = { ...flow.options, ...step.options };
  shapeNotes(step, options, place);
  const comments = () =>
    place.scope.notes.slice(notesBefore).map((n) => `flowrun export: ${n.what}`);
  if (step.call) return kindStep(step, flow, place, comments);
  if (step.include) {
    const notes = comments();
    const items = includeItems(step, place, stepItems);
    items[0]?.comments.unshift(...notes);
    return items;
  }
  // The element and its index are vars of this step only.
  const here = step.foreach
    ? { ...place, vars: new Set([...place.vars, step.foreach.as, step.foreach.index]) }
    : place;
  let items = requestItems(step, flow, here);
  if (step.loop) items = [{ comments: [], item: pollItem(step, items, here) }];
  const loop = step.foreach && foreachItem(step, items, here);
  if (loop) items = [{ comments: [], item: loop }];
  if (options.delayMs) items.unshift({ comments: [], item: { think: options.delayMs / 1000 } });
  items.at(-1)!.comments = comments();
  return items;
}

/**
 * A step of another kind (WebSocket, SSE): its processor call, after its
 * delay; a loop or foreach around it is noted, as it runs once.
 */
function kindStep(step: Step, flow: Flow, place: Place, comments: () => string[]): FlowItem[] {
  if (step.loop) note(place, "the loop of a WebSocket or SSE step is not expressed: it runs once");
  if (step.foreach) {
    note(place, "the foreach of a WebSocket or SSE step is not expressed: it runs once");
  }
  const items = kindItems(step, flow, place);
  const delayMs = { ...flow.options, ...step.options }.delayMs;
  if (delayMs) items.unshift({ comments: [], item: { think: delayMs / 1000 } });
  items.at(-1)!.comments = comments();
  return items;
}

/** The request item of a step, after the processor call its fresh or URL values need. */
function requestItems(step: Step, flow: Flow, place: Place): FlowItem[] {
  // Fresh values and URL-encoded ones are made by the processor just before the request.
  const madeBefore = place.scope.fresh.size + place.scope.encoded.size;
  const fields = requestFields(step, step.auth ?? flow.auth, place);
  const captures = step.captures.map((c) => artilleryCapture(c, place))
    .filter((c): c is ArtilleryCapture => c !== undefined);
  // A polling step's checks read its last response only: the processor makes them.
  const expected = expectationsOf(step.assert, place, step.loop !== undefined);
  const ifTrue = conditionOf(step, place);
  const request = {
    name: `${place.prefix ?? ""}${step.name}`,
    ...(ifTrue && { ifTrue }),
    ...fields,
  };
  attachChecks(request, captures, expected);
  const items: FlowItem[] = [];
  if (place.scope.fresh.size + place.scope.encoded.size > madeBefore) {
    items.push({ comments: [], item: { function: "flowrunBefore" } });
  }
  // An OAuth2 token, got by the processor before the request that needs it.
  const auth = step.auth ?? flow.auth;
  const token = auth?.kind === "oauth2" ? tokenFor(auth, place) : undefined;
  if (token) items.push({ comments: [], item: { function: token.fn } });
  items.push({ comments: [], item: { [step.request.method.toLowerCase()]: request } });
  return items;
}
