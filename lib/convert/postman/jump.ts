/**
 * `if (pm.response.code === 404) postman.setNextRequest("Target")`: Newman jumps
 * to the target when the condition holds; the flow's steps up to it run only when
 * it does not, read from this step's captured status.
 *
 * @module
 */
import { yflow, ymap, type YNode, type YScalar } from "../yaml_out.ts";
import { checksYaml } from "./checks_yaml.ts";
import type { Shared } from "./flow_state.ts";
import { type Cond, negate } from "./script/sym.ts";
import type { Translation } from "./script/translation.ts";

/** The capture a status-guarded jump reads. */
export const NEXT_STATUS = "status_for_next_request";

/**
 * Notes the jump in `shared` (the steps up to `target` get its guard) and says so in `comments`;
 * a condition flowrun cannot turn round is left a comment.
 *
 * @example
 * ```ts
 * import { guardedJump } from "./jump.ts";
 * const shared = { skipTo: undefined } as unknown as Parameters<typeof guardedJump>[0];
 * const comments: string[] = [];
 * guardedJump(shared, 0, { target: "Next", when: { path: "$.status", op: "equals", value: 404 }, where: "A", step: "a" }, comments);
 * if (shared.skipTo?.target !== "Next" || comments.length !== 1) throw new Error(comments.join());
 * ```
 */
export function guardedJump(
  shared: Shared,
  flow: number,
  jump: { target: string; when: Cond; where: string; step: string },
  comments: string[],
): void {
  const { target, when, where, step } = jump;
  const unless = negate(when);
  if (!unless) {
    comments.push(
      `untranslated: setNextRequest("${target}") under a condition flowrun cannot turn round`,
    );
    return;
  }
  const value = `\${steps.${step}.capture.${NEXT_STATUS}}`;
  shared.skipTo = {
    target,
    from: where,
    flow,
    unless: yflow([["value", value], [unless.op, unless.value as YScalar]]),
  };
  comments.push(
    `setNextRequest("${target}") when ${when.path} ${when.op} ${
      JSON.stringify(when.value)
    }: the steps up to it run only when it does not hold`,
  );
}

/** The most requests a repeated request (a poll by `setNextRequest`) sends; Newman has no bound. */
const MAX_REPEATS = 30;

/**
 * `setNextRequest(pm.info.requestName)` while a condition holds: a bounded loop until `until`.
 *
 * @example
 * ```ts
 * import { repeatLoop } from "./jump.ts";
 * const comments: string[] = [];
 * repeatLoop({ path: "$.json.done", op: "equals", value: true }, comments);
 * if (comments.length !== 1) throw new Error();
 * ```
 */
export function repeatLoop(until: Cond, comments: string[]): YNode {
  comments.push(`setNextRequest repeats this request: a loop of at most ${MAX_REPEATS} requests`);
  return ymap([
    ["max_attempts", MAX_REPEATS],
    ["sleep_ms", 500],
    ["until", ymap([["json", checksYaml([{ cond: until }])]])],
  ]);
}

/**
 * What the test scripts' `setNextRequest` says for this step: a repeat as a bounded loop (its
 * `loop:`), or a stop or a jump ahead noted in `shared` for the requests after.
 *
 * @example
 * ```ts
 * import { flowControl } from "./jump.ts";
 * const shared = { seen: new Set<string>() } as unknown as Parameters<typeof flowControl>[0];
 * const comments: string[] = [];
 * const tests = [{ next: { kind: "stop" } }] as unknown as Parameters<typeof flowControl>[2]["tests"];
 * flowControl(shared, 0, { tests, where: "A", step: "a" }, comments);
 * if (shared.stop !== "A") throw new Error(comments.join());
 * ```
 */
export function flowControl(
  shared: Shared,
  index: number,
  at: { tests: Translation[]; where: string; step: string },
  comments: string[],
): YNode | undefined {
  const { where, step } = at;
  for (const next of at.tests.flatMap((t) => (t.next ? [t.next] : []))) {
    if (next.kind === "stop") {
      shared.stop = where;
      comments.push("setNextRequest(null): the run stops after this step, as in Newman");
    } else if (next.kind === "jump" && shared.seen.has(next.target)) {
      comments.push(
        `untranslated: setNextRequest("${next.target}") goes back to an earlier request`,
      );
    } else if (next.kind === "jump" && next.when) {
      guardedJump(shared, index, { target: next.target, when: next.when, where, step }, comments);
    } else if (next.kind === "jump") {
      shared.skipTo = { target: next.target, from: where, flow: index };
      comments.push(
        `setNextRequest("${next.target}"): the requests up to it are not sent, as in Newman`,
      );
    } else {
      const until = next.while.length === 1 ? negate(next.while[0]) : undefined;
      if (until) return repeatLoop(until, comments);
      comments.push(
        "untranslated: setNextRequest repeats this request while several conditions hold",
      );
    }
  }
  return undefined;
}
