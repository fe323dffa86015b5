/**
 * Whether a `setNextRequest` earlier in the run means Newman does not send a request: a jump
 * skips every request up to its target; a guarded one (its status check) makes the requests
 * it may skip conditional instead.
 *
 * @module
 */
import type { YNode } from "../yaml_out.ts";
import type { PmRequest } from "./model.ts";
import type { Shared } from "./flow_state.ts";

/**
 * Whether `r` is skipped (noted in `pending` and the summary), and the condition it runs under.
 *
 * @example
 * ```ts
 * import { jumpSkips } from "./jump_skip.ts";
 * const shared = { skipTo: { target: "C", from: "A", flow: 0 }, notSent: [], seen: new Set() };
 * const pending: string[] = [];
 * const r = { name: "B" } as Parameters<typeof jumpSkips>[2];
 * const { skip } = jumpSkips(shared as unknown as Parameters<typeof jumpSkips>[0], 0, r, "B", pending);
 * if (!skip || pending.length !== 1) throw new Error();
 * ```
 */
export function jumpSkips(
  s: Shared,
  index: number,
  r: PmRequest,
  where: string,
  pending: string[],
): { skip: boolean; guard: YNode | undefined } {
  let jump = s.skipTo;
  if (jump?.unless && (jump.target === r.name || jump.flow !== index)) {
    // A guarded jump ends at its target, or at the end of its flow (the guard reads its capture).
    s.skipTo = jump = undefined;
  }
  const guard = jump?.unless;
  const skip = s.stop !== undefined ||
    (jump !== undefined && !jump.unless && jump.target !== r.name);
  if (skip) {
    s.notSent.push(where);
    pending.push(
      `not sent: ${where} (a setNextRequest in ${s.stop ?? jump?.from} skips it, as in Newman)`,
    );
  } else if (jump) {
    s.skipTo = undefined;
  }
  s.seen.add(r.name);
  return { skip, guard };
}
