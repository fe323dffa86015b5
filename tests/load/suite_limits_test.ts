/**
 * Limits of a flow set: files too large to parse, problems past what a
 * report can usefully list, broken links among the flow files, and the
 * console's rendering of all of it (bounded, escaped, caret on the spot).
 */
import assert from "node:assert/strict";
import type { Problem } from "../../lib/model/errors.ts";
import { MAX_FILE_BYTES } from "../../lib/model/limits.ts";
import { formatProblems, style } from "../../lib/report/console.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { MAX_PROBLEMS_TOTAL } from "../../lib/load/set_finish.ts";

Deno.test("a file over 10 MiB in a set is one file-too-large problem; the other files load", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-limits-" });
  try {
    await Deno.writeTextFile(
      `${dir}/a.yaml`,
      "name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n",
    );
    await Deno.writeFile(`${dir}/big.yaml`, new Uint8Array(MAX_FILE_BYTES + 1).fill(0x20));
    // Refused by its size before parsing; what that costs is a ratio in tests/load/limits_test.ts.
    const { flows, problems, files } = await loadFlows([dir]);
    assert.equal(flows.length, 1);
    assert.deepEqual(files.map((f) => f.slice(f.lastIndexOf("/") + 1)), ["a.yaml", "big.yaml"]);
    assert.deepEqual(problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
      "1:1 file-too-large",
    ]);
    assert.match(problems[0].message, /\(10485761 bytes\), more than the 10 MiB/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a thousand files with a hundred problems each: 1,000 listed and one that counts the rest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-limits-" });
  try {
    // One misspelt required key per step: one problem each.
    const steps = Array.from({ length: 300 }, (_, i) => `  - name: s${i}\n    reqest: {}\n`).join(
      "",
    );
    for (let i = 0; i < 30; i++) {
      await Deno.writeTextFile(
        `${dir}/f${String(i).padStart(2, "0")}.yaml`,
        `name: x\nsteps:\n${steps}`,
      );
    }
    const { problems } = await loadFlows([dir]);
    // Each file lists 100 of its 300 problems and counts 200 more; the set lists 1,000.
    assert.equal(problems.length, MAX_PROBLEMS_TOTAL + 1);
    const last = problems.at(-1)!;
    assert.equal(last.code, "too-many-problems");
    const total = problems.reduce((n, p) => n + (p.omitted ?? 1), 0);
    assert.equal(total, 30 * 300);
    assert.match(last.message, /in this file and \d+ more, are not listed/);
    const text = formatProblems(problems, style(false), "nothing was sent");
    assert.ok(text.length < 40_000, `${text.length} characters`);
    assert.match(text, /… and 8\d\d\d more problems \(the first 100 are shown/);
    assert.match(text, /9000 problems in 30 files; nothing was sent\.\n$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a broken symlink named like a flow is a file-read problem, not a flow silently gone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-limits-" });
  try {
    await Deno.writeTextFile(
      `${dir}/a.yaml`,
      "name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n",
    );
    await Deno.symlink(`${dir}/moved-away.yaml`, `${dir}/b.yaml`);
    await Deno.mkdir(`${dir}/sub`);
    await Deno.symlink(dir, `${dir}/sub/up`); // a cycle: walked once, and the walk ends
    const { flows, problems } = await loadFlows([dir]);
    assert.equal(flows.length, 1);
    assert.deepEqual(
      problems.map((p) => `${p.file.slice(p.file.lastIndexOf("/") + 1)} ${p.code}`),
      [
        "b.yaml file-read",
      ],
    );
    // In plain words, as for an included file, not the operating system's.
    assert.equal(problems[0].message, "Could not read the flow file: no such file.");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const problem = (p: Partial<Problem>): Problem => ({
  code: "yaml-syntax",
  message: "Bad.",
  file: "f.yaml",
  line: 3,
  column: 1,
  ...p,
});

/** The shown source line and the caret line under it. */
function excerptLines(text: string): { shown: string; caret: string } {
  const lines = text.split("\n");
  const i = lines.findIndex((l) => /^\d+ \| /.test(l));
  const shown = lines[i].slice(lines[i].indexOf("|") + 2);
  const caret = lines[i + 1].slice(lines[i + 1].indexOf("|") + 2);
  return { shown, caret };
}

Deno.test("formatProblems puts the caret under the column in windows of long lines", () => {
  const line = Array.from({ length: 5000 }, (_, i) => `${i % 10}`).join("");
  for (const column of [1, 30, 2500, 4999, 5000]) {
    // The whole line, and a window of it as the loader stores it.
    const from = Math.max(0, column - 80);
    for (
      const p of [{ excerpt: line }, {
        excerpt: line.slice(from, from + 240),
        excerptStart: from + 1,
      }]
    ) {
      const text = formatProblems([problem({ column, ...p })], style(false));
      const { shown, caret } = excerptLines(text);
      assert.ok(shown.length <= 122, `${shown.length}`);
      assert.equal(shown[caret.indexOf("^")], line[column - 1], `column ${column}`);
    }
  }
});

Deno.test("formatProblems shows control characters escaped, with tabs kept for alignment", () => {
  const excerpt = "\tkey: \x1b[2Jvalue\x07 here";
  const column = excerpt.indexOf("here") + 1;
  const text = formatProblems(
    [problem({ excerpt, column, length: 4, message: "Bad \x1b]0;title\x07.", hint: "\x1b[31m" })],
    style(false),
  );
  // deno-lint-ignore no-control-regex -- finding control characters is the point.
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(text), JSON.stringify(text));
  const { shown, caret } = excerptLines(text);
  assert.equal(shown.slice(caret.indexOf("^"), caret.indexOf("^") + 4), "here");
  assert.ok(caret.startsWith("\t"));
  assert.match(text, /Bad \\e\]0;title\\x07\./);
});

Deno.test("formatProblems counts what too-many-problems problems stand for", () => {
  const problems = [
    problem({ code: "unknown-key" }),
    problem({ code: "too-many-problems", line: 9, omitted: 41 }),
  ];
  const text = formatProblems(problems, style(false), "nothing was sent");
  assert.match(text, /42 problems in 1 file; nothing was sent\.\n$/);
});
