/**
 * A worker reads the environment through main, synchronously, as a flow's
 * templates read it: main's reader is the one that knows the `--env-file`
 * values, records each name read for the manifest and learns a secret
 * variable's value. The worker asks by message and waits on a shared
 * buffer (`Atomics.wait`) until main has written the answer there; each
 * name is asked once per worker.
 *
 * @module
 */

/** Bytes of a value the channel carries: far above any environment variable a system allows. */
const CAPACITY = 1 << 20;
/** Where the state and the length live, before the value's bytes. */
const HEADER = 8;
const STATE = 0;
const LENGTH = 1;
const ABSENT = -1;
const TOO_LARGE = -2;
/** How long a worker waits for main's answer before it gives up. */
const WAIT_MS = 30_000;

/**
 * The buffer one worker and main share.
 *
 * @example
 * ```ts
 * import { envBuffer } from "./env_channel.ts";
 * if (envBuffer().byteLength !== 8 + (1 << 20)) throw new Error();
 * ```
 */
export function envBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER + CAPACITY);
}

/**
 * Main's side: writes the value of a variable the worker asked for and wakes it.
 *
 * @example
 * ```ts
 * import { answerEnv, envBuffer, readAnswer } from "./env_channel.ts";
 * const buffer = envBuffer();
 * answerEnv(buffer, "http://127.0.0.1:8080");
 * if (readAnswer(buffer) !== "http://127.0.0.1:8080") throw new Error();
 * ```
 */
export function answerEnv(buffer: SharedArrayBuffer, value: string | undefined): void {
  const header = new Int32Array(buffer, 0, 2);
  if (value === undefined) header[LENGTH] = ABSENT;
  else {
    const { read, written } = new TextEncoder().encodeInto(
      value,
      new Uint8Array(buffer, HEADER),
    );
    header[LENGTH] = read === value.length ? written : TOO_LARGE;
  }
  Atomics.store(header, STATE, 1);
  Atomics.notify(header, STATE);
}

/**
 * The worker's side: asks main (by `ask`, a message) and waits for its answer.
 *
 * @example
 * ```ts
 * import { answerEnv, askEnv, envBuffer } from "./env_channel.ts";
 * const buffer = envBuffer();
 * // Main answers on another thread; here the answer is written before the wait.
 * const value = askEnv(buffer, () => answerEnv(buffer, undefined));
 * if (value !== undefined) throw new Error();
 * ```
 */
export function askEnv(buffer: SharedArrayBuffer, ask: () => void): string | undefined {
  const header = new Int32Array(buffer, 0, 2);
  Atomics.store(header, STATE, 0);
  ask();
  if (Atomics.wait(header, STATE, 0, WAIT_MS) === "timed-out") {
    throw new Error(`The main thread did not answer a worker's question to the environment.`);
  }
  return readAnswer(buffer);
}

/**
 * The answer main wrote.
 *
 * @example
 * ```ts
 * import { answerEnv, envBuffer, readAnswer } from "./env_channel.ts";
 * const buffer = envBuffer();
 * answerEnv(buffer, "é");
 * if (readAnswer(buffer) !== "é") throw new Error();
 * ```
 */
export function readAnswer(buffer: SharedArrayBuffer): string | undefined {
  const length = new Int32Array(buffer, 0, 2)[LENGTH];
  if (length === ABSENT) return undefined;
  if (length === TOO_LARGE) {
    throw new Error(`An environment variable is larger than the ${CAPACITY} bytes a worker reads.`);
  }
  // TextDecoder refuses views of shared memory: the bytes are copied out first.
  return new TextDecoder().decode(new Uint8Array(buffer, HEADER, length).slice());
}
