/**
 * A spool in memory for the report tests: it keeps what a report puts until
 * the report takes it, and counts and copies every text put, so a test can
 * say how many went through and that none held a secret.
 *
 * @module
 */
import type { FlowResult } from "../../lib/model/result.ts";
import type { Spool } from "../../lib/report/streamed.ts";

/**
 * A spool in memory; `puts` counts the texts put and `texts` keeps a copy of each.
 *
 * @example
 * ```ts ignore
 * import { memorySpool } from "./memory_spool.ts";
 * const spool = memorySpool();
 * ```
 */
export function memorySpool(): Spool & { puts: number; texts: string[] } {
  const kept = new Map<FlowResult, string>();
  const spool = {
    puts: 0,
    texts: [] as string[],
    put(flow: FlowResult, text: string) {
      spool.puts++;
      spool.texts.push(text);
      kept.set(flow, text);
      return Promise.resolve();
    },
    take(flow: FlowResult) {
      const text = kept.get(flow);
      kept.delete(flow);
      return Promise.resolve(text);
    },
    close() {
      kept.clear();
      return Promise.resolve();
    },
  };
  return spool;
}
