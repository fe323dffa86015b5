/**
 * One answer may hand out the same value under two keys: a create stamps
 * `creationDate` and `modificationDate` in the same millisecond, a new row's
 * `id` and `version` are both `1`. The producer of a value is the first key
 * that held it, so a save sending `modificationDate` back as its collision
 * check was written with the capture of `creationDate`; on a live server
 * that stamps the two a moment apart the save is refused (jsreport, whose
 * two `new Date()` calls fell a millisecond apart on one fresh run in 15:
 * 500 `CONCURRENT_UPDATE_INVALID`). The request's own key is the evidence of
 * which one it sends: where the producing answer holds the value under that
 * key too, that is the capture (the one beside the first key first). Where
 * it does not, the first key stays.
 *
 * @module
 */
import { type JsonPath, walk } from "../json.ts";
import type { Producer } from "../model.ts";

/**
 * The producer of `value` sent under `key`: `p`, or the same answer's field
 * of that key holding the same value.
 *
 * @example
 * ```ts
 * import { sameKeyProducer } from "./same_key.ts";
 * const at = "2026-01-01T10:00:00.000Z";
 * const step = { last: { json: { creationDate: at, modificationDate: at } } };
 * // deno-lint-ignore no-explicit-any
 * const p = { step, source: { kind: "json", path: ["creationDate"] }, secret: false } as any;
 * const q = sameKeyProducer(p, "modificationDate", at);
 * if (JSON.stringify(q.source) !== '{"kind":"json","path":["modificationDate"]}') throw new Error();
 * if (sameKeyProducer(p, "touched", at) !== p) throw new Error("no such key: the first");
 * ```
 */
export function sameKeyProducer(p: Producer, key: string, value: unknown): Producer {
  if (p.source.kind !== "json" || key === "") return p;
  const path = p.source.path;
  if (path.at(-1) === key) return p;
  const found: JsonPath[] = [];
  walk(p.step.last?.json, (at, k, leaf) => {
    if (k === key && leaf === value) found.push(at);
  });
  if (found.length === 0) return p;
  // The field beside the first key, when there is one: the same object's.
  const parent = JSON.stringify(path.slice(0, -1));
  const beside = found.find((at) => JSON.stringify(at.slice(0, -1)) === parent);
  return { ...p, source: { kind: "json", path: beside ?? found[0] } };
}
