/**
 * What loading the flows warns of, as the text written to standard error:
 * load warnings (an unused `--var` is a likely typo) and turned-off
 * certificate checks.
 *
 * @module
 */
import { pluralWord } from "../../lib/_util/plural.ts";
import { everyStep, type Flow } from "../../lib/model/flow.ts";

/**
 * A warning of loading, as the suite loader gives it.
 *
 * @example
 * ```ts
 * import type { LoadWarning } from "./warnings.ts";
 * const warning: LoadWarning = { code: "unused-var", name: "x", message: "x is unused.", hint: "Remove it." };
 * if (warning.code !== "unused-var") throw new Error();
 * ```
 */
export interface LoadWarning {
  /** What kind of warning (`unused-var`, …). */
  code: string;
  /** What was found. */
  message: string;
  /** What to do about it. */
  hint: string;
  /** The variable it is about, for `unused-var`. */
  name?: string;
}

/**
 * The load warnings as text, one entry each. A `--vars-file` is shared by
 * runs that read different parts of it: of unused variables, only a
 * `--var` (one of `given`) is warned of.
 *
 * @example
 * ```ts
 * import { loadWarnings } from "./warnings.ts";
 * const unused = (name: string) => ({ code: "unused-var", name, message: `${name} unused.`, hint: "Check it." });
 * const text = loadWarnings([unused("a"), unused("b")], new Map([["a", "1"]]));
 * if (text.join("") !== "warning[unused-var]: a unused.\n  hint: Check it.\n") throw new Error(text.join(""));
 * ```
 */
export function loadWarnings(
  warnings: readonly LoadWarning[],
  given: ReadonlyMap<string, string>,
): string[] {
  return warnings
    .filter((w) => w.code !== "unused-var" || given.has(w.name ?? ""))
    .map((w) => `warning[${w.code}]: ${w.message}\n  hint: ${w.hint}\n`);
}

/**
 * Turning certificate checks off is sometimes needed (a dev server's
 * self-signed certificate) and always dangerous: say so on every run,
 * naming the flows that do it (`all`: `--insecure`), so it is never on by
 * accident unnoticed. Undefined when nothing turns them off.
 *
 * @example
 * ```ts
 * import { insecureWarning } from "./warnings.ts";
 * if (insecureWarning(false, []) !== undefined) throw new Error();
 * if (!insecureWarning(true, [])?.startsWith("warning[insecure]: --insecure is on: ")) throw new Error();
 * ```
 */
export function insecureWarning(all: boolean, flows: readonly Flow[]): string | undefined {
  const files = new Set<string>();
  for (const flow of flows) {
    if (
      flow.options?.insecure || [...everyStep([flow])].some(({ step }) => step.options?.insecure)
    ) {
      files.add(flow.file);
    }
  }
  if (!all && files.size === 0) return undefined;
  const who = all
    ? "--insecure is on"
    : `${[...files].join(", ")} ${pluralWord(files.size, "sets", "set")} insecure: true`;
  return `warning[insecure]: ${who}: TLS certificates are not checked, so anyone on the network path ` +
    `can read and change these requests and their secrets.\n` +
    `  hint: Trust the server's CA instead with --cacert FILE (or ca_cert in the flow's options).\n`;
}
