/**
 * Captures that read a list's item by its position, said in the summary. A
 * page often takes a name from a list answer by index (Bull Board's board
 * lists its queues and sends the first one's name in later paths,
 * `/api/queues/mail/add`), and when no single field of the item tells it apart
 * (counts are numbers, the other words shared) the position is the only
 * evidence the conversion uses: the capture keeps it (`$.json.queues[0].name`), right on
 * an instance set up as the recorded one. An instance that lists its items in
 * another order sends another item's value, silently (the jobs went to a
 * queue no worker ran), so each such capture of a list that held more than
 * one item alike is named, with the value it read. Two fields together may
 * still tell it apart (`--verify` looks for a pair, verify_neighbours.ts), so
 * the note says "single" and points there rather than call the position the
 * only witness.
 *
 * @module
 */
import type { JsonPath } from "../model.ts";
import type { Correlator } from "./state.ts";

/** How the note begins, to find it again (`restatePositionNote`). */
const POSITION_NOTE = "Read by position, since no single field of the item tells it apart: ";

/** The JSON type of `value`, telling a list from an object and `null` from both. */
function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** Whether `list` holds more than one item, all of one JSON type. */
function alike(list: unknown[]): boolean {
  return list.length > 1 && list.every((item) => jsonType(item) === jsonType(list[0]));
}

/**
 * Whether `path` indexes, in `json`, a list of more than one item alike (of
 * one JSON type): items an instance may list in another order. A tuple of
 * mixed types is a record whose positions are its fields (Deluge's
 * `web.get_hosts` answers `[[id, "127.0.0.1", 58846, "Online"]]`).
 */
function readsListByPosition(json: unknown, path: JsonPath): boolean {
  let node = json;
  for (const segment of path) {
    if (node === null || typeof node !== "object" || typeof segment === "object") return false;
    if (typeof segment === "number" && Array.isArray(node) && alike(node)) return true;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return false;
}

/** The recorded leaf at `path`, quoted, when it is short text or a number no secret holds. */
function shown(c: Correlator, json: unknown, path: JsonPath): string | undefined {
  let node = json;
  for (const segment of path) {
    if (node === null || typeof node !== "object" || typeof segment === "object") return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  if (typeof node !== "string" && typeof node !== "number") return undefined;
  const text = String(node);
  return text.length <= 60 && !c.secrets.has(text) ? JSON.stringify(text) : undefined;
}

/**
 * The note naming every capture that reads an item of a longer list by its
 * position, or undefined when none does.
 *
 * @example
 * ```ts
 * import { positionNote } from "./position_notes.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { json: { queues: [{ name: "mail" }, { name: "reports" }] } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ name: "list_queues", last, captures: [["name", { kind: "json", path: ["queues", 0, "name"] }]] } as any);
 * if (!positionNote(c)?.includes('"mail" ($.json.queues[0].name of step "list_queues")')) throw new Error();
 * ```
 */
export function positionNote(c: Correlator): string | undefined {
  const read = c.steps.flatMap((step) =>
    step.captures.flatMap(([name, source]) => {
      if (source.kind !== "json" || !readsListByPosition(step.last.json, source.path)) return [];
      const value = shown(c, step.last.json, source.path) ?? `capture "${name}"`;
      return [`${value} (${c.sp.jsonPath(source.path)} of step "${step.name}")`];
    })
  );
  if (read.length === 0) return undefined;
  return `${POSITION_NOTE}${
    read.join(", ")
  }. An instance that lists these items in another order sends another item's value; where the value names the same item on every instance, write it in the flow instead; \`convert --verify\` reads an item that two fields together tell apart by those fields.`;
}

/**
 * Restates the note in `c.notes` after captures moved off positions
 * (`--verify` finds an element by its neighbours, verify_neighbours.ts): it
 * names the captures still read by position, or goes. Left as it was, it
 * named `$.json.data[64]` in a flow that no longer reads it.
 *
 * @example
 * ```ts
 * import { positionNote, restatePositionNote } from "./position_notes.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { json: { queues: [{ name: "mail" }, { name: "reports" }] } };
 * const capture = { kind: "json", path: ["queues", 0, "name"] };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ name: "list_queues", last, captures: [["name", capture]] } as any);
 * c.notes.push(positionNote(c)!);
 * capture.path = ["queues", { filter: "name", value: "mail" }, "name"] as never;
 * restatePositionNote(c);
 * if (c.notes.length !== 0) throw new Error(c.notes.join());
 * ```
 */
export function restatePositionNote(c: Correlator): void {
  const at = c.notes.findIndex((note) => note.startsWith(POSITION_NOTE));
  if (at < 0) return;
  const left = positionNote(c);
  if (left === undefined) c.notes.splice(at, 1);
  else c.notes[at] = left;
}
