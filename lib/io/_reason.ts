/**
 * A system error's message in plain words, shared by the read and the write
 * errors. Deno API family: none (it reads the messages `Deno.errors` carry).
 *
 * @module
 */

/**
 * A system error's message as a clause: without the error number and the
 * repeated operation and path Deno appends (`… (os error 28): write '/x'`).
 *
 * @example
 * ```ts
 * import { plainReason } from "./_reason.ts";
 * const error = new Error("no space left on device (os error 28): write '/x'");
 * if (plainReason(error) !== "No space left on device") throw new Error();
 * ```
 */
export function plainReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const plain = message.replace(/\s*\(os error \d+\).*$/s, "").replace(/[.:\s]+$/, "").trim();
  return plain ? plain[0].toUpperCase() + plain.slice(1) : "Unknown error";
}
