/**
 * A capture's `when` or `otherwise` reading a capture of its own step
 * (`${steps.<this step>.capture.k}`): one value from two parts of one answer
 * (the body's token, else a cookie's), which a value known before the step
 * cannot say. A step's captures are taken in the order written, so only
 * those written above it have a value; one below it, itself or a name the
 * step does not capture is a problem at the reference.
 *
 * @module
 */
import type { Expr } from "../expr/template.ts";
import { suggest } from "../_util/suggest.ts";
import type { RawStep } from "./steps.ts";

/** What the check reads of the scope of the reference (a `RefScope` of ref_checks.ts). */
interface OwnScope {
  own?: { name: string; above: readonly string[] };
  report: (code: string, message: string, hint?: string) => void;
}

/**
 * Checks `${steps.<user>.capture.<key>}` in the `when` or `otherwise` of the
 * capture `c.own.name` of step `user`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const step = (token: string) =>
 *   'name: f\nsteps:\n  - name: login\n    request: {url: "http://x.test"}\n    capture:\n' +
 *   "      body_token: {path: $.json.token, optional: true}\n" +
 *   `      token: {cookie: t, when: {path: $.json.token, exists: false}, otherwise: "\${steps.login.capture.${token}}"}\n`;
 * if (loadFlow(step("body_token"), "f.yaml").problems.length !== 0) throw new Error();
 * const [typo] = loadFlow(step("body_tokn"), "f.yaml").problems;
 * if (typo?.code !== "unknown-capture" || !typo.hint?.includes("body_token")) throw new Error(typo?.message);
 * if (loadFlow(step("token"), "f.yaml").problems[0]?.code !== "later-step") throw new Error();
 * ```
 */
export function checkOwnCapture(
  expr: Expr,
  ref: { step: string; key: string },
  user: RawStep,
  c: OwnScope,
): void {
  const { name, above } = c.own!;
  if (above.includes(ref.key)) return;
  const where = `capture "${name}" of step "${ref.step}"`;
  if (ref.key === name) {
    return c.report(
      "later-step",
      `The ${where} reads itself in "${expr.text}".`,
      `Its "when" and "otherwise" may read the step's captures written above it: capture the ` +
        `other source first (e.g. ${name}_body: {path: …, optional: true}) and read that.`,
    );
  }
  if (user.captures.some((cap) => cap.name === ref.key)) {
    return c.report(
      "later-step",
      `The ${where} reads "${ref.key}" in "${expr.text}", but "${ref.key}" is written below it.`,
      `A step's captures are taken in the order written: move "${ref.key}" above "${name}".`,
    );
  }
  const close = suggest(ref.key, above);
  c.report(
    "unknown-capture",
    `Step "${ref.step}" captures no value "${ref.key}" above its capture "${name}" (in "${expr.text}").`,
    close
      ? `Did you mean "${close}"?`
      : above.length
      ? `Captured above it: ${above.join(", ")}.`
      : `Capture it above "${name}", e.g. ${ref.key}: {path: $.json.${ref.key}, optional: true}.`,
  );
}
