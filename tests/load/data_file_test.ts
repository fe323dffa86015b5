/**
 * Data files as rows: CSV by RFC 4180 (quotes, doubled quotes, commas and
 * line breaks inside quotes, CRLF, a BOM, blank lines) or a JSON list of
 * objects (values may be maps and lists, as a var's), each row named by its `name`; what is not rows
 * is one plain sentence.
 */
import assert from "node:assert/strict";
import { parseDataFile } from "../../lib/load/data_file.ts";

Deno.test("CSV: quoting, line breaks inside quotes, CRLF, BOM and blank lines", () => {
  const rows = parseDataFile(
    '\uFEFFname, note\r\nann,"a, ""b""\nc"\r\n\r\nbob,plain\r\n3,',
    "rows.csv",
  );
  assert.ok(Array.isArray(rows));
  assert.deepEqual(rows.map((r) => r.values), [
    { name: "ann", note: 'a, "b"\nc' },
    { name: "bob", note: "plain" },
    { name: "3", note: "" },
  ]);
  assert.deepEqual(rows.map((r) => r.name), ["ann", "bob", "3"]);
});

Deno.test("JSON rows keep their values; rows without a name are numbered", () => {
  const rows = parseDataFile('[{"n": 1, "ok": true}, {"name": "b", "v": null}]', "ROWS.JSON");
  assert.ok(Array.isArray(rows));
  assert.deepEqual(rows.map((r) => [r.name, r.values]), [
    ["row 1", { n: 1, ok: true }],
    ["b", { name: "b", v: null }],
  ]);
});

Deno.test("what is not rows is one sentence", () => {
  const cases: [string, string, string][] = [
    ["a.csv", 'name\n"open', "a quoted field is never closed"],
    ["a.csv", "name\n", "it needs a header row and at least one row"],
    ["a.csv", "a,b\n1\n", "row 1 has 1 fields, the header 2"],
    ["a.json", "{", "it is not JSON ("],
    ["a.json", "[]", "it must hold a non-empty list of objects"],
    ["a.json", "[1]", "row 1 is not an object"],
    [
      "a.json",
      `[{"a": ${"[".repeat(65)}${"]".repeat(65)}}]`,
      '"a" in row 1 is nested more than 64',
    ],
    ["a.json", `[{"a": [${"1,".repeat(10_000)}1]}]`, '"a" in row 1 has more than 10,000 entries'],
  ];
  for (const [path, text, reason] of cases) {
    const got = parseDataFile(text, path);
    assert.equal(typeof got, "string", text);
    assert.ok((got as string).startsWith(reason), `${text}: ${got}`);
  }
});
