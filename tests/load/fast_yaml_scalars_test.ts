/**
 * The YAML fast path's scalars agree with the `yaml` package's core schema
 * (integers as BigInt) on every spelling of null, booleans, numbers and
 * text; double-quoted escapes it does not know hand the file over.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { GiveUp, resolvePlain, scalar, unescape } from "../../lib/load/fast_yaml_scalars.ts";

Deno.test("plain scalars resolve as the yaml package resolves them", () => {
  const spellings = [
    "",
    "~",
    "null",
    "Null",
    "NULL",
    "true",
    "True",
    "TRUE",
    "false",
    "False",
    "FALSE",
    "0",
    "-12",
    "+7",
    "0o17",
    "0x1F",
    "1.5",
    ".5",
    "-1e3",
    "2E-2",
    "1.",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    "yes",
    "no",
    "0b101",
    "1_000",
    "12abc",
    "+",
    ".",
    "-x",
    "nULL",
    "9007199254740993",
  ];
  for (const s of spellings) {
    const expected = parse(`v: ${s === "" ? "" : s}`, { intAsBigInt: true }).v;
    const got = resolvePlain(s);
    if (Number.isNaN(expected)) assert.ok(Number.isNaN(got), s);
    else assert.equal(got, expected, s);
  }
});

Deno.test("double-quoted escapes, and the ones that give up", () => {
  assert.equal(unescape("plain"), "plain");
  assert.equal(
    unescape('a\\tb\\n\\"q\\" \\\\ \\/ \\x41\\u00e9\\U0001F600\\N\\_\\L\\P'),
    'a\tb\n"q" \\ / Aé😀\u0085\u00a0\u2028\u2029',
  );
  for (const bad of ["\\q", "\\x4", "\\uD800", "\\U00110000", "\\"]) {
    assert.throws(() => unescape(bad), GiveUp, bad);
  }
});

Deno.test("a long string value is a copy, not a view into the file's text", () => {
  const node = scalar("a".repeat(20), "PLAIN", "a".repeat(20), [0, 20, 21]);
  assert.equal(node.value, "a".repeat(20));
  assert.deepEqual(node.range, [0, 20, 21]);
});
