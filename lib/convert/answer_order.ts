/**
 * The replay order of requests a page had in flight together. Steps replay
 * one at a time in the order their requests began, which is the order the
 * page sent them, except for a request that waited on the server for what a
 * later one caused: a long-poll (Engine.IO's polling `GET`, a Comet or
 * blocking query) was held by the server until a `POST` sent after it made
 * its answer, which then came while that `POST` was answered (or moments
 * after). Replayed in start order it waits for a write that is not sent
 * until it returns: a timeout. Such a `GET` is replayed right after the last
 * write it waited for. No step between can have read its answer (each began
 * before it came), so the move changes no value a step sends; a `GET` that
 * was merely slow, answered well after the write's answer, keeps its place,
 * and so does a `GET` answered 2xx in flight at a write after which the next
 * request was refused (a sign-out): it was served before the write took effect.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { isWebSocket } from "./har_websocket.ts";

/**
 * `ordered` (sorted by start) with each waiting `GET` moved after the last write
 * (any other method) that began after it while it waited, and by whose
 * answer (within {@linkcode SLACK_MS}) its own answer had begun.
 *
 * @example
 * ```ts
 * import { orderByAnswers } from "./answer_order.ts";
 * import type { HarRecord } from "./har_model.ts";
 * const r = (method: string, started: number, time: number) =>
 *   ({ method, started, url: new URL("http://a.test/x"), raw: { time } }) as unknown as HarRecord;
 * // The poll's answer begins at 14, while the join (10 to 15) is answered.
 * const poll = r("GET", 0, 14), join = r("POST", 10, 5), other = r("GET", 20, 1);
 * const got = orderByAnswers([poll, join, other]);
 * if (got[0] !== join || got[1] !== poll || got[2] !== other) throw new Error();
 * // A slow read answered long after the write stays first.
 * if (orderByAnswers([r("GET", 0, 900), join])[1] !== join) throw new Error();
 * ```
 */
export function orderByAnswers(ordered: HarRecord[]): HarRecord[] {
  const out = [...ordered];
  ordered.forEach((waiting, at) => {
    const first = firstByteAt(waiting);
    if (waiting.method !== "GET" || first === undefined || isWebSocket(waiting)) return;
    // Only what began while it waited: the writes never move, so their order is `ordered`'s,
    // and a long recording is read once per request's wait, not once per request.
    const waitedFor: HarRecord[] = [];
    for (
      let i = firstBegun(ordered, at + 1, (t) => t > waiting.started!);
      i < ordered.length && ordered[i].started! < first;
      i++
    ) {
      const w = ordered[i];
      const end = answeredAt(w);
      if (
        w.method !== "GET" && !isWebSocket(w) && end !== undefined && first <= end + SLACK_MS &&
        !(isOk(waiting) && endedAccess(ordered, w, end))
      ) waitedFor.push(w);
    }
    if (waitedFor.length === 0) return;
    out.splice(out.indexOf(waiting), 1);
    out.splice(out.indexOf(waitedFor[waitedFor.length - 1]) + 1, 0, waiting);
  });
  return out;
}

/** The position of the first request of `ordered` (sorted by start) from `low` on that `begun` holds for. */
function firstBegun(
  ordered: HarRecord[],
  low: number,
  begun: (started: number) => boolean,
): number {
  let high = ordered.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (begun(ordered[mid].started!)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Whether `r` was answered 2xx. */
function isOk(r: HarRecord): boolean {
  return r.status !== undefined && r.status >= 200 && r.status < 300;
}

/**
 * Whether the write `w` (answered at `end`) ended the access a read needs:
 * the next request to its host begun after that answer was refused (401 or
 * 403), as after a sign-out. A read answered 2xx was then served before the
 * write took effect, not held until it (the list in flight at a sign-out).
 */
function endedAccess(ordered: HarRecord[], w: HarRecord, end: number): boolean {
  let next: HarRecord | undefined;
  for (let i = firstBegun(ordered, 0, (t) => t >= end); i < ordered.length && !next; i++) {
    if (ordered[i] !== w && ordered[i].url.host === w.url.host) next = ordered[i];
  }
  return next?.status === 401 || next?.status === 403;
}

/** How long after a write's answer a held answer may begin and still be the write's doing. */
export const SLACK_MS = 50;

/** When the answer was complete (ms since the epoch), when the recording says. */
function answeredAt(r: HarRecord): number | undefined {
  const time = (r.raw as { time?: unknown }).time;
  if (r.started === undefined || typeof time !== "number" || !(time >= 0)) return undefined;
  return r.started + time;
}

/** When the answer's first byte came: its end less the time its body took to arrive. */
function firstByteAt(r: HarRecord): number | undefined {
  const end = answeredAt(r);
  const receive = (r.raw as { timings?: { receive?: unknown } }).timings?.receive;
  return end === undefined
    ? undefined
    : end - (typeof receive === "number" && receive > 0 ? receive : 0);
}
