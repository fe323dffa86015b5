/**
 * OpenAPI coverage with workers: a worker notes each response and each
 * `openapi:` check's document as one thread would, but into its outbox, in
 * order with its flows' events; main adds them to the run's collector, which
 * makes the coverage report at the end as on one thread.
 *
 * @module
 */
import { CoverageCollector } from "../coverage.ts";
import type { WorkerItem } from "./messages.ts";

/**
 * A worker's collector: every note goes to main.
 *
 * @example
 * ```ts
 * import { ForwardedCoverage } from "./coverage.ts";
 * const sent: unknown[] = [];
 * const coverage = new ForwardedCoverage((item) => void sent.push(item));
 * coverage.record("GET", "http://x.test/items", 200);
 * coverage.addCheck({ source: "api.yaml", document: {}, file: "flows/a.yaml" });
 * coverage.addCheck({ source: "api.yaml", document: {}, file: "flows/a.yaml" });
 * if (sent.length !== 2) throw new Error(JSON.stringify(sent));
 * ```
 */
export class ForwardedCoverage extends CoverageCollector {
  /** The documents already sent, by source and flow file: each document crosses once. */
  readonly #sent = new Set<string>();

  constructor(readonly send: (item: WorkerItem) => void) {
    super();
  }

  /** Sends the check's document to main, once. */
  override addCheck(check: { source: string; document: unknown; file: string }): void {
    const key = `${check.file}\0${check.source}`;
    if (this.#sent.has(key)) return;
    this.#sent.add(key);
    this.send({ kind: "coverage-check", ...check });
  }

  /** Sends the response's method, URL and status to main. */
  override record(method: string, url: string, status: number): void {
    this.send({ kind: "coverage", method, url, status });
  }
}
