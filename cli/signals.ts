/**
 * Interrupts: the first SIGINT or SIGTERM aborts the run cleanly (no new
 * requests, every artifact still written, exit 130 or 143); a second one
 * exits at once. Listening starts before flows are loaded and ends after the
 * last artifact, so a signal at any moment of a run has the same effect.
 * From the first signal on, an artifact written through a FIFO, device or
 * stream that takes no bytes is given up after a second (see
 * `INTERRUPTED_WRITE_MS` in lib/io/interrupt.ts): a FIFO nobody reads cannot keep a
 * signalled run alive.
 *
 * @module
 */
import { EXIT } from "./exit.ts";
import { err } from "./output.ts";

/** The run's interrupt: aborted with the signal's name as reason. */
export interface Interrupts {
  /** Aborted by the first signal, with `"SIGINT"` or `"SIGTERM"` as reason. */
  signal: AbortSignal;
  /**
   * Aborted by the first signal, also one after {@linkcode Interrupts.settle}
   * (which leaves `signal` and the exit code as they are): the artifacts'
   * writes are bounded from then on.
   */
  writes: AbortSignal;
  /** Stops listening. */
  dispose(): void;
  /**
   * The exit code is decided and written into the manifest: a signal now
   * changes nothing (a second one still quits at once), so the code the
   * process exits with is the one the manifest records.
   */
  settle(): void;
}

/**
 * Listens for SIGINT (and SIGTERM outside Windows) until disposed.
 *
 * @example
 * ```ts ignore
 * import { listenForInterrupts } from "./signals.ts";
 * const interrupts = listenForInterrupts();
 * try { /* run *\/ } finally { interrupts.dispose(); }
 * ```
 */
export function listenForInterrupts(): Interrupts {
  const controller = new AbortController();
  const writes = new AbortController();
  let settled = false;
  let late = false;
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const handlers = signals.map((signal) => {
    const handler = () => {
      if (controller.signal.aborted || late) Deno.exit(EXIT[signal as "SIGINT" | "SIGTERM"]);
      if (settled) {
        late = true;
        err(`\nflowrun: ${signal} received; writing the last artifacts (again to quit now)\n`);
        writes.abort(signal);
        return;
      }
      err(
        `\nflowrun: ${signal} received; finishing the run and writing its artifacts (again to quit now)\n`,
      );
      writes.abort(signal);
      controller.abort(signal);
    };
    Deno.addSignalListener(signal, handler);
    return [signal, handler] as const;
  });
  return {
    signal: controller.signal,
    writes: writes.signal,
    settle() {
      settled = true;
    },
    dispose() {
      for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
    },
  };
}

/**
 * The exit code of an interrupted run, or undefined when it was not interrupted.
 *
 * @example
 * ```ts
 * import { interruptCode } from "./signals.ts";
 * const c = new AbortController();
 * c.abort("SIGTERM");
 * if (interruptCode(c.signal) !== 143) throw new Error();
 * ```
 */
export function interruptCode(signal: AbortSignal): number | undefined {
  if (!signal.aborted) return undefined;
  return signal.reason === "SIGTERM" ? EXIT.SIGTERM : EXIT.SIGINT;
}
