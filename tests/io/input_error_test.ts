/** Why an input was not read: one clause, a stable code, no stack trace. */
import assert from "node:assert/strict";
import { inputFailure, InputFileError, tooLarge } from "../../lib/io/input_error.ts";

Deno.test("the system's refusals read as plain clauses with stable codes", () => {
  const cases: [Error, string, string][] = [
    [new Deno.errors.NotFound("x"), "file-read", "no such file"],
    [new Deno.errors.PermissionDenied("x"), "file-read", "permission denied"],
    [
      new Deno.errors.FilesystemLoop("x"),
      "file-read",
      "it is a symbolic link loop (too many levels of links)",
    ],
    [
      Object.assign(new Error("x"), { code: "ELOOP" }),
      "file-read",
      "it is a symbolic link loop (too many levels of links)",
    ],
    [
      new Deno.errors.IsADirectory("x"),
      "not-a-regular-file",
      "it is a directory, not a regular file",
    ],
    [new Error("Input/output error (os error 5): read 'x'"), "file-read", "input/output error"],
    [new Error("EIO happened"), "file-read", "EIO happened"],
  ];
  for (const [cause, code, reason] of cases) {
    const error = inputFailure("a.yaml", cause);
    assert.deepEqual([error.code, error.message, error.path], [code, reason, "a.yaml"]);
    assert.equal(error.cause, cause);
    assert.equal(error.stack, `InputFileError: ${reason}`, "one line, no stack trace");
  }
  const given = new InputFileError("a", "file-read", "no such file");
  assert.equal(inputFailure("b", given), given, "an InputFileError is not wrapped twice");
});

Deno.test("Deno's refusal of kernel files without --allow-all names the file, not the flag", () => {
  const cause = new Deno.errors.NotCapable(
    "Requires all access to /proc/kmsg, run again with --allow-all",
  );
  const error = inputFailure("/proc/kmsg", cause);
  assert.equal(error.code, "not-a-regular-file");
  assert.equal(error.message, "it is a kernel interface file, not a regular file");
});

Deno.test("input-too-large says the size in bytes or MiB, and keeps it", () => {
  assert.equal(tooLarge("a", 2, 3).message, "it is 3 bytes, more than the 2 bytes limit");
  const big = tooLarge("a", 10 * 1024 * 1024, 12.5 * 1024 * 1024);
  assert.equal(big.message, "it is 12.5 MiB, more than the 10 MiB limit");
  assert.equal(big.size, 12.5 * 1024 * 1024);
  const growing = tooLarge("a", 1024 * 1024);
  assert.equal(growing.message, "it is larger than the 1 MiB limit");
  assert.equal(growing.size, undefined, "a file that grew has said no size");
});
