/** The `Link` header (RFC 8288) as pagination writes it: every form a relation is found in. */
import assert from "node:assert/strict";
import { linkRelation, parseLinks } from "../../lib/check/link_header.ts";

const BASE = "http://127.0.0.1:8080/repos/a/b/issues?page=2";

Deno.test("a relation is found quoted, unquoted, among several and in any case", () => {
  const cases: [string, string, string | undefined][] = [
    ['<https://api.test/i?page=3>; rel="next"', "next", "https://api.test/i?page=3"],
    ["<https://api.test/i?page=3>; rel=next", "next", "https://api.test/i?page=3"],
    ['<https://api.test/i?page=9>; rel="last next"', "next", "https://api.test/i?page=9"],
    ['<https://api.test/i?page=9>; rel="Next"', "NEXT", "https://api.test/i?page=9"],
    [
      '<https://api.test/i?page=1>; rel="prev", <https://api.test/i?page=3>; rel="next"',
      "next",
      "https://api.test/i?page=3",
    ],
    // two Link headers, joined by the response as repeated headers are
    ['<https://a.test/1>; rel="prev", <https://a.test/3>; rel="next"', "prev", "https://a.test/1"],
    // a comma and a semicolon inside the URI and inside a quoted title are not separators
    [
      '<https://a.test/x?a=1,2;b>; title="a, b; rel=next"; rel="next"',
      "next",
      "https://a.test/x?a=1,2;b",
    ],
    // only the first rel of a link counts
    ['<https://a.test/1>; rel="prev"; rel="next"', "next", undefined],
    ['<https://a.test/1>; rel="prev"', "next", undefined],
    ["", "next", undefined],
    ["garbage, <https://a.test/2>; rel=next", "next", "https://a.test/2"],
    ['<https://a.test/1>; REL="next"', "next", "https://a.test/1"],
  ];
  for (const [header, rel, expected] of cases) {
    assert.equal(linkRelation(header, rel), expected, header);
  }
});

Deno.test("a relative target is resolved against the URL the response came from", () => {
  assert.equal(
    linkRelation('</i?page=3>; rel="next"', "next", BASE),
    "http://127.0.0.1:8080/i?page=3",
  );
  assert.equal(
    linkRelation('<issues?page=3>; rel="next"', "next", BASE),
    "http://127.0.0.1:8080/repos/a/b/issues?page=3",
  );
  assert.equal(
    linkRelation('<?page=3>; rel="next"', "next", BASE),
    "http://127.0.0.1:8080/repos/a/b/issues?page=3",
  );
  assert.equal(linkRelation('<https://b.test/x>; rel="next"', "next", BASE), "https://b.test/x");
});

Deno.test("parameters keep their first value and quoted escapes are undone", () => {
  const [link] = parseLinks('<https://a.test/>; title="say \\"hi\\""; rel=next; rel=prev; anchor');
  assert.deepEqual(link, {
    target: "https://a.test/",
    params: { title: 'say "hi"', rel: "next", anchor: "" },
  });
  assert.deepEqual(parseLinks("<unterminated; rel=next"), []);
});
