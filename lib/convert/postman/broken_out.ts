/**
 * The chains a set not translated breaks, as the summary names them: those some later request
 * reads, each with the script's lines that set it (flow_state.ts's `Broken`), masked as the
 * comments beside the steps are (secret_mask.ts): the summary is printed, in a CI log too.
 *
 * @module
 */
import type { Broken } from "./flow_state.ts";

/** A broken chain as the summary has it: only the fields set. */
export interface BrokenOut {
  name: string;
  by: string;
  readers: string[];
  partly?: boolean;
  line?: string;
}

/**
 * The broken chains later requests read, their lines through `mask` (secret_mask.ts).
 *
 * @example
 * ```ts
 * import { brokenOut } from "./broken_out.ts";
 * const out = brokenOut([
 *   { name: "sig", by: "Sign", readers: ["Sign"], line: "pm.environment.set('sig', hmac(body, 'k3y-Secret-9'));" },
 *   { name: "x", by: "A", readers: [] },
 * ], (t) => t.replace("k3y-Secret-9", "***"));
 * if (out.length !== 1 || out[0].line?.includes("k3y-Secret-9") || "partly" in out[0]) throw new Error(JSON.stringify(out));
 * ```
 */
export function brokenOut(broken: readonly Broken[], mask: (text: string) => string): BrokenOut[] {
  return broken.filter((b) => b.readers.length > 0).map(({ name, by, readers, partly, line }) => ({
    name,
    by,
    readers,
    ...(partly ? { partly } : {}),
    ...(line ? { line: mask(line) } : {}),
  }));
}
