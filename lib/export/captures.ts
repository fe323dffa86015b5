/**
 * A step's captures as Artillery captures (`capture: [{json: …, as: …}]`):
 * the captured value lands in the virtual user's variable that later
 * requests read as `{{ … }}`. A cookie, or a header's query parameter or
 * regex group, Artillery cannot capture: those are marked `flowrun` for the
 * processor's `flowrunCapture` hook. XPath and a Link header's rel are
 * noted, and so is a capture's `when` (Artillery captures on every answer).
 *
 * @module
 */
import type { Capture } from "../model/checks.ts";
import { jsonPathOf, targetOf } from "./response_path.ts";
import { captureName, note, type Place } from "./scope.ts";

/** One Artillery capture. */
export type ArtilleryCapture = Record<string, unknown> & { as: string };

/** Whether a regular expression has a group (flowrun then captures the first). */
function hasGroup(source: string): boolean {
  try {
    return (new RegExp(`${source}|`).exec("")?.length ?? 1) > 1;
  } catch {
    return false;
  }
}

/** The Artillery form of a path capture, or undefined (noted) when it has none. */
function pathCapture(capture: Capture & { from: { kind: "path" } }, place: Place) {
  const target = targetOf(capture.from.path);
  switch (target?.kind) {
    case "json":
      return { json: jsonPathOf(target.chain) };
    case "header":
      return { header: target.name };
    case "body":
      return { regexp: "^[\\s\\S]*$" };
  }
  note(
    place,
    `capture "${capture.name}" (${capture.from.path.source}) is not a plain path Artillery can read: not captured`,
  );
  return undefined;
}

/**
 * The Artillery form of one capture, or undefined when Artillery cannot
 * make it (then it is noted).
 *
 * @example
 * ```ts
 * import { artilleryCapture } from "./captures.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
 * const c = artilleryCapture({ name: "id", line: 1, column: 1, from: { kind: "header", name: "Location" } }, place);
 * if (JSON.stringify(c) !== '{"header":"location","as":"f0_s__id"}') throw new Error(JSON.stringify(c));
 * ```
 */
export function artilleryCapture(capture: Capture, place: Place): ArtilleryCapture | undefined {
  const as = captureName(place.flowIndex, place.step ?? "", capture.name);
  const from = capture.from;
  let found: Record<string, unknown> | undefined;
  if (from.kind === "path") found = pathCapture({ ...capture, from }, place);
  else if (from.kind === "header" && !from.query && !from.regex && !from.rel) {
    found = { header: from.name.toLowerCase() };
  } else if (from.kind === "cookie") {
    // Made by the processor's flowrunCapture hook: Artillery captures no cookie.
    found = { flowrun: { cookie: from.name } };
  } else if (from.kind === "header" && !from.rel) {
    const name = from.name.toLowerCase();
    found = { flowrun: { header: name, query: from.query, regex: from.regex?.source } };
  } else if (from.kind === "regex") {
    found = hasGroup(from.source) ? { regexp: from.source, group: 1 } : { regexp: from.source };
  } else {
    note(
      place,
      `capture "${capture.name}" (${from.kind}) has no Artillery counterpart: not captured`,
    );
  }
  if (found && from.when) {
    // Artillery captures on every answer: the condition and the kept value are not exported.
    note(
      place,
      `capture "${capture.name}" is taken only when its "when" holds: Artillery takes it from every answer`,
    );
  }
  return found && { ...found, as };
}
