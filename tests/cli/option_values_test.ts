import assert from "node:assert/strict";
import { byteSize, duration, parseParams, positiveInteger } from "../../cli/option_values.ts";
import { UsageError } from "../../lib/model/errors.ts";

/** The code and message of the usage error `f` throws. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return `${error.code}: ${error.message}`;
  }
  assert.fail("no usage error");
}

Deno.test("--var pairs: later ones win, the value keeps its '=', RUN_ID and TRACE_ID are refused", () => {
  assert.deepEqual(parseParams(), new Map());
  assert.deepEqual(
    parseParams(["a=1", "b-c=x=y", "a=2", "_e="]),
    new Map([["a", "2"], ["b-c", "x=y"], ["_e", ""]]),
  );
  assert.equal(
    refusal(() => parseParams(["1a=x"])),
    'bad-var: Expected --var NAME=VALUE, got "1a".',
  );
  assert.equal(
    refusal(() => parseParams(["plain"])),
    'bad-var: Expected --var NAME=VALUE, got "plain".',
  );
  assert.equal(
    refusal(() => parseParams(["RUN_ID=7"])),
    "bad-var: RUN_ID cannot be set with --var.",
  );
  assert.match(refusal(() => parseParams(["TRACE_ID=7"])), /^bad-var: TRACE_ID cannot be set/);
});

Deno.test("sizes: bytes or a unit in any case, from 1 KiB to the maximum", () => {
  assert.equal(byteSize(undefined, "max-body"), undefined);
  assert.equal(byteSize("1024", "max-body"), 1024);
  assert.equal(byteSize(" 512 kib ", "max-body"), 512 * 1024);
  assert.equal(byteSize("1GB", "max-body"), 1e9);
  assert.equal(byteSize("4GiB", "max-body"), 4 * 1024 ** 3);
  for (const bad of ["1023", "5GiB", "10 parsecs", "-1KiB", "1.5MiB", ""]) {
    assert.equal(
      refusal(() => byteSize(bad, "max-body")),
      `bad-max-body: Expected --max-body to be a size from 1KiB to 4GiB, got "${bad}".`,
    );
  }
  assert.match(refusal(() => byteSize("1MiB", "memory", 1000, "1000B")), /from 1KiB to 1000B/);
});

Deno.test("durations: milliseconds or a unit, positive and at most the maximum", () => {
  assert.equal(duration(undefined, "timeout", 1000), undefined);
  assert.equal(duration("250", "timeout", 1000), 250);
  assert.equal(duration("2m", "timeout", 600_000), 120_000);
  assert.equal(
    refusal(() => duration("0", "timeout", 1000)),
    'bad-timeout: Expected --timeout to be a positive duration, got "0".',
  );
  assert.equal(
    refusal(() => duration("2s", "timeout", 1000)),
    'bad-timeout: Expected --timeout to be at most 1000 ms, got "2s".',
  );
});

Deno.test("whole numbers: positive, safe and at most the maximum", () => {
  assert.equal(positiveInteger(undefined, "jobs", "a count"), undefined);
  assert.equal(positiveInteger(" 8 ", "jobs", "a count"), 8);
  for (const bad of ["0", "-1", "1.5", "1e3", "x"]) {
    assert.equal(
      refusal(() => positiveInteger(bad, "jobs", "a count")),
      `bad-jobs: Expected --jobs to be a count, got "${bad}".`,
    );
  }
  assert.equal(
    refusal(() => positiveInteger("11", "jobs", "a count", 10)),
    'bad-jobs: Expected --jobs to be at most 10, got "11".',
  );
});
