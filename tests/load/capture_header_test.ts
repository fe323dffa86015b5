/** A header capture's part, `query`, `regex` or `rel` (lib/load/capture_header.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";

/** A flow whose one step captures `v` from `source` (in `block`), as loaded. */
function load(source: string, block = "capture") {
  return loadFlow(
    `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    ${block}:\n      v: ${source}\n`,
    "f.yaml",
  );
}

Deno.test("a header's regex and Link relation load in both spellings", () => {
  for (const block of ["capture", "extract"]) {
    const rel = load("{header: Link, rel: Next}", block);
    assert.deepEqual(rel.problems, []);
    assert.deepEqual(rel.flow?.steps[0].captures[0].from, {
      kind: "header",
      name: "link",
      rel: "next",
    });
    const re = load(`{header: X-Rate, regex: 'remaining=(\\d+)'}`, block).flow?.steps[0].captures[0]
      .from;
    assert.ok(
      re?.kind === "header" && re.name === "x-rate" && re.regex?.source === "remaining=(\\d+)",
    );
    // a regex alone is still the body's
    assert.equal(load("{regex: 'id=(\\d+)'}", block).flow?.steps[0].captures[0].from.kind, "regex");
  }
});

Deno.test("each bad combination is one positioned problem with a fix", () => {
  // Each problem is at the key or value to fix (`at`: its first character in the source).
  const cases: [string, string, string, RegExp][] = [
    ["{header: x-next, rel: next}", "unknown-key", "rel", /Link header.*rel: next/],
    ["{cookie: sid, rel: next}", "unknown-key", "rel", /Link header: \{header: link, rel: next\}/],
    ["{rel: next}", "missing-key", "{", /Use one of/],
    ["{header: x-rate, regex: 'n=\\d+'}", "bad-regex", "'", /parentheses/],
    ["{header: x-rate, regex: '(?:n)=\\d+'}", "bad-regex", "'", /parentheses/],
    ["{header: x-rate, regex: '('}", "bad-regex", "'", /backslash/],
    ["{header: link, regex: '(a)', rel: next}", "conflicting-keys", "rel", /keep one/],
    ["{header: location, query: code, regex: '(a)'}", "conflicting-keys", "regex", /keep one/],
    ["{header: link, rel: 5}", "wrong-type", "5", /rel: next/],
    ["{header: link, rel: ''}", "wrong-type", "'", /rel: next/],
  ];
  for (const [source, code, at, hint] of cases) {
    const column = "      v: ".length + source.indexOf(at) + 1;
    const { problems } = load(source);
    assert.equal(problems.length, 1, `${source}: ${JSON.stringify(problems)}`);
    assert.equal(problems[0].code, code, source);
    assert.equal(`${problems[0].line}:${problems[0].column}`, `6:${column}`, source);
    assert.match(problems[0].hint ?? "", hint, source);
  }
});
