/**
 * A WebSocket or SSE step's map as the data its processor function reads:
 * every value an Artillery template (`{{ … }}`, rendered for each virtual
 * user, so `${ENV.X}` stays `{{ $env.X }}`), `until` as {@linkcode untilData},
 * the bounds as numbers. What the processor does not do (an `until` it
 * cannot evaluate, an SSE stream's reconnections) is noted.
 *
 * @module
 */
import type { SseSpec, WebSocketSpec } from "../kinds/mod.ts";
import type { CompiledPath } from "../model/path.ts";
import { note, type Place } from "./scope.ts";
import { templateText, templateValue } from "./template.ts";
import { type UntilData, untilData } from "./until.ts";

/** `until` as data, or undefined (noted: receiving then stops at its other bounds). */
function untilOf(
  until: CompiledPath | undefined,
  place: Place,
): { source: string; any: UntilData } | undefined {
  if (!until) return undefined;
  const data = until.template ? undefined : untilData(until.source);
  if (!data) {
    note(
      place,
      `until "${until.source}" is not expressed (only a filter of member chains against ` +
        "literals is): receiving stops at count or wait",
    );
  }
  return data && { source: until.source, any: data };
}

/**
 * A WebSocket step's `until` list as data, each path to hold by some message;
 * a path the processor cannot evaluate is noted and left out.
 */
function untilListOf(
  until: CompiledPath[] | undefined,
  place: Place,
): { source: string; any: UntilData }[] | undefined {
  const list = (until ?? []).flatMap((path) => untilOf(path, place) ?? []);
  return list.length > 0 ? list : undefined;
}

/** A send item's `after`: a count, or the message it waits for as data (noted when not expressed). */
function afterOf(after: WebSocketSpec["send"][number]["after"], place: Place): unknown {
  if (after === undefined || typeof after === "number") return after;
  const message = untilOf(after.message, place);
  return message && { message };
}

/** A WebSocket step's data. */
function webSocketData(spec: WebSocketSpec, place: Place): Record<string, unknown> {
  return {
    url: templateText(spec.url, place),
    headers: Object.fromEntries(
      spec.headers.map(([name, value]) => [name.toLowerCase(), templateValue(value, place)]),
    ),
    subprotocols: spec.subprotocols,
    send: spec.send.map((item) => ({
      kind: item.kind,
      value: templateValue(item.value, place),
      ...(item.after === undefined ? {} : { after: afterOf(item.after, place) }),
    })),
    until: untilListOf(spec.until, place),
    count: spec.count,
    waitMs: spec.waitMs,
  };
}

/** An SSE step's data. */
function sseData(spec: SseSpec, place: Place): Record<string, unknown> {
  if (spec.reconnects > 0) {
    note(place, "reconnects is not expressed: a stream the server ends is not opened again");
  }
  return {
    url: templateText(spec.url, place),
    method: spec.method,
    headers: spec.headers && templateValue(spec.headers, place),
    body: spec.body && templateValue(spec.body, place),
    lastEventId: spec.lastEventId && templateText(spec.lastEventId, place),
    until: untilOf(spec.until, place),
    count: spec.count,
    waitMs: spec.waitMs,
  };
}

/**
 * The data of a `websocket:` or `sse:` step's spec.
 *
 * @example
 * ```ts
 * import { kindSpecData } from "./kind_spec.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
 * const url = { source: "http://x.test/e", parts: ["http://x.test/e"] };
 * const data = kindSpecData("sse", { url, method: "GET", count: 5, reconnects: 0 }, place);
 * if (data.url !== "http://x.test/e" || data.count !== 5) throw new Error(JSON.stringify(data));
 * ```
 */
export function kindSpecData(
  kind: "websocket" | "sse",
  spec: unknown,
  place: Place,
): Record<string, unknown> {
  return kind === "sse"
    ? sseData(spec as SseSpec, place)
    : webSocketData(spec as WebSocketSpec, place);
}
