/**
 * The hint of another tool's placeholder (`{{token}}`) once the steps are
 * known: a name an earlier step captures is read as
 * `${steps.STEP.capture.NAME}`, not as the var `${token}` the hint written
 * without the steps would give (following that is a new problem).
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import type { Step } from "../model/flow.ts";

/**
 * Rewrites, in place, the hints of `foreign-expression` problems whose name
 * is no var but a capture of one of `steps` (the first that captures it).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: login\n    request: {url: "http://x.test"}\n    capture: {token: $.json.token}\n' +
 *     '  - name: s\n    request: {url: "http://x.test/{{token}}"}\n',
 *   "f.yaml",
 * );
 * if (!problems[0]?.hint?.startsWith("Write ${steps.login.capture.token}")) throw new Error(problems[0]?.hint);
 * ```
 */
export function captureForeignHints(
  problems: Problem[],
  steps: readonly Step[],
  vars: readonly { name: string }[],
): void {
  for (const p of problems) {
    const name = p.code === "foreign-expression" &&
      /^Write \$\{([\w-]+)\} \(/.exec(p.hint ?? "")?.[1];
    if (!name || vars.some((v) => v.name === name)) continue;
    const step = steps.find((s) => s.captures?.some((c) => c.name === name));
    if (step) {
      p.hint = `Write \${steps.${step.name}.capture.${name}} (step "${step.name}" captures it).`;
    }
  }
}
