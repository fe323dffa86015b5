/**
 * Finding the credentials a flow file writes (to keep them out of YAML slip messages) is linear
 * in the file, whatever a line holds: the fuzzer's mutant with a 112 KB line of `${${${…` took
 * 5 s (an expression pattern read to the line's end from every `${`), and a long line of many
 * `password: x,` pairs copied the rest of the line for each.
 */
import { writtenCredentials } from "../../lib/load/written_credentials.ts";
import { assertLinear } from "../support/timing.ts";

Deno.test("writtenCredentials is linear on a long line of ${ and on a long line of secret pairs", () => {
  assertLinear("a line of ${", (n) => writtenCredentials(`x: ${"${".repeat(n)}\n`), 4_000);
  assertLinear(
    "a line of pairs",
    (n) => writtenCredentials(`a: {${"password: tok_9f8e7d6c, ".repeat(n)}}\n`),
    1_000,
  );
});
