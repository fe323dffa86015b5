/**
 * The hint for a list of maps written where a map was wanted (`- status: 200`): the map itself,
 * without the "- " or the brackets.
 *
 * @module
 */
import type { Node, YAMLSeq } from "yaml";
import { isMap } from "./nodes.ts";

/**
 * "Drop the "- "…" with the list's first item (`first`, already dereferenced) as the example,
 * or undefined when `list` is no list of maps or its first line is not short.
 *
 * @example
 * ```ts
 * import { listAsMapHint } from "./list_as_map.ts";
 * import { parseDocument } from "yaml";
 * const text = "assert:\n  - status: 200\n";
 * const list = parseDocument(text).get("assert", true) as import("yaml").YAMLSeq;
 * const hint = listAsMapHint(text, list.items[0] as import("yaml").Node, list);
 * if (hint !== 'Drop the "- ": a map\'s keys are written without it, e.g. status: 200') throw new Error(hint);
 * ```
 */
export function listAsMapHint(text: string, first: Node | null, list: unknown): string | undefined {
  if (!isMap(first) || !first.range) return undefined;
  const line = text.slice(first.range[0], first.range[1]).split("\n")[0].trim();
  return line.length > 0 && line.length <= 80
    ? (list as YAMLSeq).flow
      ? `Drop the [ ]: write the map itself, e.g. ${line}`
      : `Drop the "- ": a map's keys are written without it, e.g. ${line}`
    : undefined;
}
