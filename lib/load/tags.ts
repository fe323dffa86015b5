/**
 * `tags` of a flow or a step: the names `--tag` selects by.
 *
 * @module
 */
import { isScalar, isSeq } from "./nodes.ts";
import { isTagName } from "../select/tags.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import { quoteItemHint } from "./quote_hint.ts";
import type { Entry } from "./entry.ts";

/**
 * `tags: [smoke, api]`: names `--tag` selects the flow by.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\ntags: [smoke]\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (flow?.tags?.join() !== "smoke") throw new Error();
 * ```
 */
export function loadTags(ctx: Loading, entry: Entry | undefined): string[] {
  if (!entry) return [];
  const node = ctx.deref(entry.value);
  const items = isSeq(node) ? node.items.map((i) => ctx.deref(i)) : [node];
  const tags: string[] = [];
  for (const item of items) {
    const v = isScalar(item) ? item.value : undefined;
    if (typeof v === "string" && isTagName(v)) tags.push(v);
    else {
      ctx.problem(
        "bad-name",
        typeof v === "string"
          ? `Tag "${v}" cannot be selected with --tag.`
          : `Expected "tags" to be a list of tag names, got ${describe(item)}.`,
        item ?? entry.keyNode,
        quoteItemHint(ctx, item) ??
          'Use letters, digits, "_", "-", ".", ":" and "/" (not and, or, not), e.g. tags: [smoke, api].',
      );
    }
  }
  return tags;
}
