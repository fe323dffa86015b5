/**
 * The artifacts a run was asked for (JUnit, JSON, HTML, log, manifest), each
 * written on its own: a write that fails (a full disk, a read-only or missing
 * directory, a dead device) is reported in one sentence naming the path and
 * the reason, and every other artifact is still written. The run then exits
 * 4 unless something more urgent decides its code. Once the run is
 * interrupted, a write that goes through (a FIFO, a device) and takes no
 * bytes for a second is given up the same way, so no artifact holds a
 * signalled run.
 *
 * @module
 */
import type { FlowResult } from "../../lib/model/result.ts";
import type { Reporter } from "../../lib/report/reporter.ts";
import { ArtifactWriteError, type StreamWriter, type WriteSummary } from "../../lib/io/mod.ts";
import { FlowMasks } from "../../lib/report/flow_masks.ts";
import type { ReportOutput } from "../../lib/report/shared_reports.ts";
import type { ReportFormat } from "../../lib/report/streamed.ts";
import { err, redactor } from "../output.ts";
import { save } from "../save.ts";
import { openSpool } from "./spool.ts";

/** The paths asked for, by kind. */
export interface ArtifactPaths {
  junit?: string;
  json?: string;
  html?: string;
  log?: string;
  manifest?: string;
  codequality?: string;
  har?: string;
}

const LABEL: Record<keyof ArtifactPaths, string> = {
  junit: "JUnit report",
  json: "JSON report",
  html: "HTML report",
  log: "log",
  manifest: "manifest",
  codequality: "code quality report",
  har: "HAR report",
};

/**
 * The artifact paths of `--report-junit`, `--report-json`, `--report-html`,
 * `--log-file`, `--manifest` and `--out-dir` (explicit options win).
 *
 * @example
 * ```ts
 * import { artifactPaths } from "./artifacts.ts";
 * const paths = artifactPaths({ "out-dir": "out/", "report-json": "r.json" });
 * if (paths.json !== "r.json" || paths.junit !== "out/junit.xml") throw new Error();
 * ```
 */
export function artifactPaths(values: {
  "report-junit"?: string;
  "report-json"?: string;
  "report-html"?: string;
  "log-file"?: string;
  manifest?: string;
  "out-dir"?: string;
  "report-codequality"?: string;
  "report-har"?: string;
}): ArtifactPaths {
  const dir = values["out-dir"]?.replace(/\/+$/, "");
  const inDir = (name: string) => dir === undefined ? undefined : `${dir}/${name}`;
  return {
    junit: values["report-junit"] ?? inDir("junit.xml"),
    json: values["report-json"] ?? inDir("report.json"),
    html: values["report-html"] ?? inDir("report.html"),
    log: values["log-file"] ?? inDir("run.log.ndjson"),
    manifest: values.manifest ?? inDir("manifest.json"),
    // Not in --out-dir: only GitLab reads it, where the pipeline names it anyway.
    codequality: values["report-codequality"],
    // Not in --out-dir either: it holds every body, so it is asked for by name.
    har: values["report-har"],
  };
}

/**
 * Why a write failed, as a clause: the system's words without the error
 * number or the repeated path ("No space left on device").
 *
 * @example
 * ```ts
 * import { plainReason } from "./artifacts.ts";
 * const reason = plainReason(new Error("No space left on device (os error 28): write '/x'"));
 * if (reason !== "No space left on device") throw new Error(reason);
 * ```
 */
export function plainReason(error: unknown): string {
  if (error instanceof ArtifactWriteError) return error.reason;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\(os error \d+\).*$/s, "").replace(/[.:\s]+$/, "") || "unknown error";
}

/** A written artifact, with the exact bytes this run wrote. */
export type Written =
  | { kind: keyof ArtifactPaths; path: string; bytes: Uint8Array }
  | { kind: keyof ArtifactPaths; path: string; sha256: string; size: number };

/** Writes the requested artifacts, each on its own. */
export class Artifacts {
  /**
   * Artifacts written, in the order they were, for the manifest: streamed
   * ones (the log, reports) are hashed and listed only when a manifest is
   * requested.
   */
  readonly written: Written[] = [];
  /** Artifacts that could not be written, with why. */
  readonly failures: { kind: keyof ArtifactPaths; path: string; reason: string }[] = [];
  /**
   * Each flow's result masked once, for every reporter that reads it whole
   * (the reports, and the console: wrap it with `masks.reporter`). The run's
   * events are raw (`rawEvents`): each output masks what it writes.
   */
  readonly masks: FlowMasks = new FlowMasks(redactor);
  #log?: StreamWriter;
  #logFailed = false;

  private constructor(readonly paths: ArtifactPaths, readonly interrupt?: AbortSignal) {}

  /** Whether streamed artifacts are hashed: only the manifest reads their hashes. */
  get #hashing(): boolean {
    return this.paths.manifest !== undefined;
  }

  /** Lists a streamed artifact, when it was hashed for the manifest. */
  #wrote(kind: keyof ArtifactPaths, summary: WriteSummary): void {
    const { path, sha256, size } = summary;
    if (sha256 !== undefined) this.written.push({ kind, path, sha256, size });
  }

  /**
   * Opens the log (a failure to open it is a failure of the log alone).
   *
   * @example
   * ```ts ignore
   * import { Artifacts } from "./artifacts.ts";
   * const artifacts = await Artifacts.open({ json: "out/report.json" }, interrupts.writes);
   * ```
   *
   * `interrupt` bounds every write once aborted (see `WriteOptions` in lib/io/interrupt.ts).
   */
  static async open(paths: ArtifactPaths, interrupt?: AbortSignal): Promise<Artifacts> {
    const artifacts = new Artifacts(paths, interrupt);
    if (paths.log) {
      const io = await import("../../lib/io/mod.ts");
      try {
        artifacts.#log = await io.openStreamWriter(paths.log, {
          hash: artifacts.#hashing,
          interrupt,
        });
      } catch (error) {
        artifacts.#fail("log", paths.log, error);
      }
    }
    return artifacts;
  }

  #fail(kind: keyof ArtifactPaths, path: string, error: unknown): void {
    // A stream that could not be opened fails at every piece after: it is said once.
    if (this.failures.some((f) => f.kind === kind && f.path === path)) return;
    const reason = plainReason(error);
    this.failures.push({ kind, path, reason });
    err(`flowrun: could not write the ${LABEL[kind]} "${path}": ${reason}.\n`);
  }

  /** Writes one artifact file; never throws. */
  async write(kind: keyof ArtifactPaths, path: string, text: string): Promise<void> {
    try {
      this.written.push({ kind, path, bytes: await save(path, text, this.interrupt) });
    } catch (error) {
      this.#fail(kind, path, error);
    }
  }

  /**
   * The reporters that write the report files and the log.
   *
   * @example
   * ```ts ignore
   * import { Artifacts } from "./artifacts.ts";
   * const artifacts = await Artifacts.open({ json: "out/report.json" });
   * const reporters = await artifacts.reporters({});
   * ```
   */
  async reporters(html: {
    traceLink?: string;
    shard?: { index: number; total: number };
    reproduce?: (file: string) => string;
    provenance?: Record<string, string>;
    /** `--history`: each flow's streak, shown in the HTML report. */
    history?: (flow: FlowResult) => { streak: string; note?: string } | undefined;
  }) {
    const reporters: Reporter[] = [];
    const reports = await this.#reports(html);
    if (reports) reporters.push(reports);
    const { codequality } = this.paths;
    if (codequality) {
      const { codeQualityReporter } = await import("../../lib/report/codequality.ts");
      const write = (t: string) => this.write("codequality", codequality, t);
      // It reads the run's result alone, which the run masks at its end.
      reporters.push(this.#guard("codequality", codequality, codeQualityReporter(write)));
    }
    const { har } = this.paths;
    if (har) reporters.push(await this.#har(har));
    const log = this.#log;
    if (log) {
      const { logReporter } = await import("../../lib/report/log.ts");
      reporters.push(logReporter({
        // A failed write never rejects: the log stops, says why when closed, and the run goes on.
        sink: (lines: string) => log.write(lines),
        // The log masks its lines itself, each flow's when it ends, keeping every line JSON: its
        // steps' lines are made from the flow's one masked copy.
        redactor,
        masked: (flow) => this.masks.flow(flow),
      }));
    }
    return reporters;
  }

  /**
   * The JSON, JUnit and HTML reports asked for, written together from one
   * spool of masked flows (`lib/report/shared_reports.ts`); each fails alone.
   */
  async #reports(html: Parameters<Artifacts["reporters"]>[0]): Promise<Reporter | undefined> {
    const { junit, json, html: htmlPath } = this.paths;
    if (!junit && !json && !htmlPath) return undefined;
    const outputs: ReportOutput[] = [];
    // Pieces are not masked as text at the end: they are made from flows masked then. What a
    // report adds of its own to a flow's piece is masked here.
    const reproduce = html.reproduce &&
      ((file: string) => redactor.redactOutput(html.reproduce!(file)));
    const history = html.history &&
      ((flow: FlowResult) => redactor.redactValue(html.history!(flow)));
    if (junit) {
      const { junitFormat } = await import("../../lib/report/junit.ts");
      outputs.push(this.#output("junit", junit, junitFormat({ reproduce })));
    }
    if (json) {
      const { JSON_FORMAT } = await import("../../lib/report/json.ts");
      outputs.push(this.#output("json", json, JSON_FORMAT));
    }
    if (htmlPath) {
      const { htmlFormat } = await import("../../lib/report/html.ts");
      outputs.push(this.#output("html", htmlPath, htmlFormat({ ...html, reproduce, history })));
    }
    const { sharedReports } = await import("../../lib/report/shared_reports.ts");
    const reporter = sharedReports(outputs, await openSpool(), this.masks);
    // Only what fails before a report is told apart (the spool) fails them all.
    const failAll = (error: unknown) => Promise.all(outputs.map((o) => o.fail(error)));
    return this.#guardAll(reporter, failAll);
  }

  /**
   * The HAR report: its stream, its entries masked as each flow ends and
   * spooled, masked again with every secret of the run when it ends (`lib/report/har.ts`).
   */
  async #har(path: string): Promise<Reporter> {
    const { harReporter } = await import("../../lib/report/har.ts");
    const { write, abandon } = this.#stream("har", path);
    const reporter = harReporter({ write, redactor, spool: await openSpool() });
    return this.#guardAll(reporter, async (error) => {
      await abandon(error);
      this.#fail("har", path, error);
    });
  }

  /** One report of {@linkcode #reports}: its stream, unmasked (its pieces come masked). */
  #output(kind: keyof ArtifactPaths, path: string, format: ReportFormat): ReportOutput {
    const { write, abandon } = this.#stream(kind, path);
    let failed = false;
    return {
      format,
      write,
      fail: async (error) => {
        if (failed) return;
        failed = true;
        await abandon(error);
        this.#fail(kind, path, error);
      },
    };
  }

  /**
   * Writes a report piece by piece as a stream that appears at `path` when
   * the last piece is written. Pieces come masked (`shared_reports.ts`).
   */
  #stream(kind: keyof ArtifactPaths, path: string) {
    let writer: Promise<StreamWriter> | undefined;
    const write = async (text: string, last: boolean): Promise<void> => {
      writer ??= import("../../lib/io/mod.ts").then((io) =>
        io.openStreamWriter(path, { hash: this.#hashing, interrupt: this.interrupt })
      );
      const w = await writer;
      await w.write(text);
      if (!last) return;
      this.#wrote(kind, await w.close());
    };
    // A report that fails halfway leaves neither half a file nor its temporary file.
    const abandon = async (reason: unknown) => {
      await (await writer?.catch(() => undefined))?.abandon(reason);
    };
    return { write, abandon };
  }

  /**
   * A reporter whose every hook is caught: a report that cannot even be made
   * (a result too large to serialise) fails alone, as a failed artifact.
   */
  #guard(kind: keyof ArtifactPaths, path: string, reporter: Reporter): Reporter {
    return this.#guardAll(reporter, (error) => Promise.resolve(this.#fail(kind, path, error)));
  }

  /** A reporter whose every hook is caught, failing with `fail` (see {@linkcode #guard}). */
  #guardAll(reporter: Reporter, fail: (error: unknown) => Promise<unknown>): Reporter {
    const guarded: Reporter = {};
    for (const [hook, fn] of Object.entries(reporter) as [keyof Reporter, unknown][]) {
      if (typeof fn !== "function") continue;
      (guarded as Record<string, unknown>)[hook] = async (...args: unknown[]) => {
        try {
          await fn.apply(reporter, args);
        } catch (error) {
          await fail(error);
        }
      };
    }
    return guarded;
  }

  /** Closes the log; it counts as written unless a line failed. */
  async closeLog(): Promise<void> {
    if (!this.#log || this.#logFailed) return;
    try {
      // The hash and size of the bytes written: a log is never read back.
      this.#wrote("log", await this.#log.close());
    } catch (error) {
      this.#logFailed = true;
      this.#fail("log", this.paths.log!, error);
    }
  }
}
