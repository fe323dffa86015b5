/**
 * The tag filter of a flow set (`--tag`): the part of a flow whose steps
 * the expression selects, with what they need.
 *
 * @module
 */
import type { Flow } from "../model/flow.ts";
import type { TagTest } from "../select/tags.ts";

/**
 * The part of a flow `--tag` selects, or `undefined` for none: the steps
 * whose tags (the flow's and their own) satisfy the expression, the steps
 * they need (values they read, `depends_on`), and the cleanup steps whose
 * needs all run, so what a kept step creates is still removed.
 *
 * @example
 * ```ts
 * import { selectSteps } from "./set_steps.ts";
 * import { compileTags } from "../select/tags.ts";
 * const step = (name: string, extra: object) => ({ name, ...extra });
 * const flow = {
 *   file: "f.yaml", name: "f", vars: [], tags: ["api"],
 *   steps: [
 *     step("login", {}),
 *     step("create", { tags: ["write"], needs: ["login"] }),
 *     step("list", { tags: ["read"], needs: ["login"] }),
 *     step("delete", { always: true, needs: ["create", "login"] }),
 *   ],
 * // deno-lint-ignore no-explicit-any
 * } as any;
 * const read = selectSteps(flow, compileTags("read"))!;
 * if (read.steps.map((s) => s.name).join() !== "login,list") throw new Error();
 * const write = selectSteps(flow, compileTags("write"))!;
 * if (write.steps.map((s) => s.name).join() !== "login,create,delete") throw new Error();
 * if (selectSteps(flow, compileTags("ui")) !== undefined) throw new Error();
 * if (selectSteps(flow, compileTags("api"))!.steps.length !== 4) throw new Error();
 * ```
 */
export function selectSteps(flow: Flow, test: TagTest): Flow | undefined {
  const own = flow.tags ?? [];
  const kept = new Set(
    flow.steps.filter((s) => test(new Set([...own, ...s.tags ?? []]))).map((s) => s.name),
  );
  if (kept.size === 0) return undefined;
  if (kept.size === flow.steps.length) return flow;
  const byName = new Map(flow.steps.map((s) => [s.name, s]));
  const pending = [...kept];
  while (pending.length > 0) {
    for (const need of byName.get(pending.pop()!)?.needs ?? []) {
      if (!kept.has(need)) {
        kept.add(need);
        pending.push(need);
      }
    }
  }
  for (const s of flow.steps) {
    if (s.always && s.needs?.length && s.needs.every((n) => kept.has(n))) kept.add(s.name);
  }
  return { ...flow, steps: flow.steps.filter((s) => kept.has(s.name)) };
}
