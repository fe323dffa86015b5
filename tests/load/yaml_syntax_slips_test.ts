/**
 * The YAML slips a newcomer makes (issue 54, item 5), through the CLI: each
 * is one problem whose message says what the author most likely meant (the
 * parser's words only as detail) and whose hint is an edit. The test applies
 * each hint mechanically, as a reader would follow it, and the fixed files
 * validate and run. The full parser reads these files (the fast path gives
 * up on each), so both paths give the same message.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { fastParse } from "../../lib/load/fast_yaml.ts";

/** A flow with two steps; `slip` replaces the line `from` (the slip's line is where it lands). */
const BASE = [
  "name: slips",
  "vars:",
  "  x: 1",
  "steps:",
  "  - name: get",
  "    request:",
  "      url: http://127.0.0.1:9/a",
  "      method: GET",
  "    assert:",
  "      status: 200",
  "  - name: two",
  "    request: {url: http://127.0.0.1:9/b}",
  "    assert:",
  "      json:",
  "        - {path: $.json.a, exists: true}",
  "        - {path: $.json.b, exists: true}",
];

interface Slip {
  /** Replaces BASE's lines from `at` (1-based), `remove` of them (default 1). */
  at: number;
  lines: string[];
  remove?: number;
  /** The problem as printed: `line:column message`, and the hint. */
  problem: string;
  hint: string;
}

const P = 'the parser: "';
const SLIPS: Record<string, Slip> = {
  "a key one space deeper than its sibling": {
    at: 8,
    lines: ["       method: GET"],
    problem:
      `8:8 "method" on line 8 is indented 7 spaces, but "url" (line 7) is indented 6: keys of one map line up (${P}Nested mappings are not allowed in compact mappings"; 1 more on this line, caused by it).`,
    hint: 'Indent "method" 6 spaces, like "url" on line 7.',
  },
  "a key two spaces deeper than its sibling": {
    at: 8,
    lines: ["        method: GET"],
    problem:
      `8:9 "method" on line 8 is indented 8 spaces, but "url" (line 7) is indented 6: keys of one map line up (${P}Nested mappings are not allowed in compact mappings"; 1 more on this line, caused by it).`,
    hint: 'Indent "method" 6 spaces, like "url" on line 7.',
  },
  "a key one space shallower than its sibling": {
    at: 8,
    lines: ["     method: GET"],
    problem:
      `8:6 "method" on line 8 is indented 5 spaces, but "url" (line 7) is indented 6: keys of one map line up (${P}All mapping items must start at the same column").`,
    hint: 'Indent "method" 6 spaces, like "url" on line 7.',
  },
  "a key short of its siblings after a nested map lines up with them, not the nested keys": {
    at: 8,
    lines: ["      headers:", "        x-a: b", "     method: GET"],
    problem:
      `10:6 "method" on line 10 is indented 5 spaces, but "headers" (line 8) is indented 6: keys of one map line up (${P}All mapping items must start at the same column").`,
    hint: 'Indent "method" 6 spaces, like "headers" on line 8.',
  },
  "a step's - one space too deep": {
    at: 11,
    lines: ["   - name: two"],
    problem:
      `11:4 the "- " on line 11 is indented 3 spaces, but the one on line 5 is indented 2: the items of one list line up (${P}All sequence items must start at the same column"; 1 more after it, caused by it).`,
    hint: 'Indent line 11 by 1 fewer space, to line up its "- " with the one on line 5.',
  },
  "an unquoted * as a list item": {
    at: 3,
    lines: ["  scopes:", "    - read", "    - * # all of them"],
    problem:
      `5:7 a value starting with "*" must be quoted to be text: unquoted, YAML reads it as an alias (a reference to an "&" anchor) (${P}Alias cannot be an empty string").`,
    hint: 'Quote it: - "*"',
  },
  'an unquoted @ before a "': {
    at: 3,
    lines: ['  who: @"me"'],
    problem:
      `3:8 a value starting with "@" must be quoted to be text: YAML reserves "@" at the start of an unquoted value (${P}Plain value cannot start with reserved character @").`,
    hint: `Quote it: who: '@"me"'`,
  },
  "a step key one space too deep, with its block": {
    at: 9,
    remove: 2,
    lines: ["     assert:", "       status: 200"],
    problem:
      `9:6 "assert" on line 9 is indented 5 spaces, but "request" (line 6) is indented 4: "assert" is a key of the step, and keys of one map line up (${P}All mapping items must start at the same column").`,
    hint:
      '"assert" on line 9 is a key of the step: indent "assert" 4 spaces, like "request" on line 6, and the lines under it with it.',
  },
  "a step key one space too shallow": {
    at: 9,
    remove: 2,
    lines: ["   assert:", "     status: 200"],
    problem:
      `9:4 "assert" on line 9 is indented 3 spaces, but "request" (line 6) is indented 4: "assert" is a key of the step, and keys of one map line up (${P}Sequence item without - indicator").`,
    hint:
      '"assert" on line 9 is a key of the step: indent "assert" 4 spaces, like "request" on line 6, and the lines under it with it.',
  },
  "a step's - one space short": {
    at: 11,
    lines: [" - name: two"],
    problem:
      `11:2 the "- " on line 11 is indented 1 space, but the one on line 5 is indented 2: the items of one list line up (${P}A block sequence may not be used as an implicit map key"; 5 more after it, caused by it).`,
    hint: 'Indent line 11 by 1 more space, to line up its "- " with the one on line 5.',
  },
  "a whole step one space short": {
    at: 11,
    remove: 6,
    lines: [
      " - name: two",
      "   request: {url: http://127.0.0.1:9/b}",
      "   assert:",
      "     json:",
      "       - {path: $.json.a, exists: true}",
      "       - {path: $.json.b, exists: true}",
    ],
    problem:
      `11:2 the "- " on line 11 is indented 1 space, but the one on line 5 is indented 2: the items of one list line up (${P}A block sequence may not be used as an implicit map key"; 2 more on this line, caused by it).`,
    hint: 'Indent lines 11 to 16 by 1 more space, to line up its "- " with the one on line 5.',
  },
  "a check's - one space short": {
    at: 16,
    lines: ["       - {path: $.json.b, exists: true}"],
    problem:
      `16:8 the "- " on line 16 is indented 7 spaces, but the one on line 15 is indented 8: the items of one list line up (${P}A block sequence may not be used as an implicit map key"; 2 more on this line, caused by it).`,
    hint: 'Indent line 16 by 1 more space, to line up its "- " with the one on line 15.',
  },
  "an unquoted *": {
    at: 3,
    lines: ["  scope: *"],
    problem:
      `3:10 a value starting with "*" must be quoted to be text: unquoted, YAML reads it as an alias (a reference to an "&" anchor) (${P}Alias cannot be an empty string").`,
    hint: 'Quote it: scope: "*"',
  },
  "an unquoted *.read": {
    at: 3,
    lines: ["  scope: *.read"],
    problem:
      '3:10 a value starting with "*" must be quoted to be text: unquoted, YAML reads it as an alias (a reference to an "&" anchor), and no anchor "&.read" is defined.',
    hint: 'Quote it: scope: "*.read"',
  },
  "an unquoted &": {
    at: 3,
    lines: ["  scope: &read"],
    problem:
      '3:10 a value starting with "&" must be quoted to be text: unquoted, YAML reads it as an anchor (a name for the value after it), and the value after it is empty.',
    hint: 'Quote it: scope: "&read"',
  },
  "an unquoted @": {
    at: 3,
    lines: ["  who: '@me' # ok", "  handle: @me # the team"],
    remove: 0,
    problem:
      `4:11 a value starting with "@" must be quoted to be text: YAML reserves "@" at the start of an unquoted value (${P}Plain value cannot start with reserved character @").`,
    hint: 'Quote it: handle: "@me"',
  },
  "an unquoted backtick": {
    at: 3,
    lines: ["  cmd: `ls -l`"],
    problem:
      `3:8 a value starting with "\`" must be quoted to be text: YAML reserves a backtick at the start of an unquoted value (${P}Plain value cannot start with reserved character \`").`,
    hint: 'Quote it: cmd: "`ls -l`"',
  },
  "an unquoted : inside a value": {
    at: 7,
    lines: ["      url: http://127.0.0.1:9/a: b"],
    problem:
      `7:12 the value of "url" holds ": ", which YAML reads as the start of another key (${P}Nested mappings are not allowed in compact mappings").`,
    hint: 'Quote it: url: "http://127.0.0.1:9/a: b"',
  },
  "a tab for indentation": {
    at: 8,
    lines: ["\tmethod: GET"],
    problem:
      `8:1 line 8 is indented with a tab; YAML indents with spaces only (${P}Tabs are not allowed as indentation"; 5 more after it, caused by it).`,
    hint:
      "Indent with spaces, not tabs: replace the indentation of line 8 with 6 spaces, to line up with line 7.",
  },
  "a tab for the first key of a block": {
    at: 7,
    lines: ["\t  url: http://127.0.0.1:9/a"],
    problem:
      `7:1 line 7 is indented with a tab; YAML indents with spaces only (${P}Tabs are not allowed as indentation"; 7 more after it, caused by it).`,
    hint:
      'Indent with spaces, not tabs: replace the indentation of line 7 with 6 spaces, under "request:" on line 6.',
  },
  "an unquoted ${…} inside { }": {
    at: 12,
    lines: ["    request: {method: POST, url: http://127.0.0.1:9/b, body: {a: ${vars.x}}}"],
    problem:
      '12:67 inside { } or [ ], a value holding "[", "]", "{", "}", ", " or ": " must be quoted (26 more after it, caused by it).',
    hint: 'Quote it: request: {method: POST, url: http://127.0.0.1:9/b, body: {a: "${vars.x}"}}',
  },
  "a # value right after its key": {
    at: 8,
    lines: ["      headers:", "        x-color: #fff"],
    problem: '9:18 the value of "x-color" is empty: after ": ", YAML reads "#fff" as a comment.',
    hint: 'Quote it: x-color: "#fff"',
  },
  "a # value right after its key, in a file with anchors": {
    at: 3,
    lines: ["  x: &x 1", "  y: *x", "  color: #fff"],
    problem: '5:10 the value of "color" is empty: after ": ", YAML reads "#fff" as a comment.',
    hint: 'Quote it: color: "#fff"',
  },
  "a # value inside { }": {
    at: 12,
    lines: ["    request: {url: http://127.0.0.1:9/b, headers: {x-color: #fff}}"],
    problem:
      `12:61 a value starting with "#" inside { } or [ ] must be quoted: unquoted, it starts a comment, which hides the rest of the line and its closing bracket (${P}Flow map in block collection must be sufficiently indented and end with a }"; 1 more on this line, caused by it).`,
    hint: 'Quote it: request: {url: http://127.0.0.1:9/b, headers: {x-color: "#fff"}}',
  },
  "a key given twice": {
    at: 8,
    remove: 0,
    lines: ["      url: http://127.0.0.1:9/other"],
    problem:
      `8:7 "url" is given twice in one map, on line 7 and line 8 (${P}Map keys must be unique").`,
    hint: 'Each key may appear once in a map; remove or rename one: "url" is on line 7 too.',
  },
  "name: for - name:": {
    at: 11,
    lines: ["    name: two"],
    problem:
      `11:5 the step on line 11 has no "- ", so its keys repeat the step's before it (${P}Map keys must be unique"; 2 more after it, caused by it).`,
    hint: 'A new step starts with "- ": write "  - name:" here.',
  },
  "- name: for the flow's name:": {
    at: 1,
    lines: ["- name: slips"],
    problem:
      `1:1 the flow starts with "- " on line 1, which makes it a list item, but a flow file is one map of keys (${P}Unexpected scalar at node end"; 58 more after it, caused by it).`,
    hint: 'Remove the "- " at the start of line 1.',
  },
  "a quote never closed": {
    at: 7,
    lines: ['      url: "http://127.0.0.1:9/a'],
    problem:
      `7:12 the double quote that opens the value on line 7 is never closed (${P}Missing closing "quote").`,
    hint: 'Close it at the end of the value: url: "http://127.0.0.1:9/a"',
  },
};

function withSlip(slip: Slip): string[] {
  const lines = [...BASE];
  lines.splice(slip.at - 1, slip.remove ?? 1, ...slip.lines);
  return lines;
}

const indentOf = (l: string) => l.length - l.trimStart().length;

/** The lines with the hint's edit applied, as a reader would: every hint names one. */
function follow(lines: string[], line: number, hint: string): string[] {
  const out = [...lines];
  const i = line - 1;
  let m: RegExpExecArray | null;
  if ((m = /^(?:Quote it|Close it at the end of the value): (.*)$/.exec(hint))) {
    out[i] = lines[i].slice(0, indentOf(lines[i])) + m[1];
  } else if (
    (m = /indent "[\w-]+" (\d+) spaces?, like .*?( and the lines under it)?/i.exec(hint))
  ) {
    const by = Number(m[1]) - indentOf(lines[i]);
    let last = i;
    if (hint.includes("the lines under it")) {
      while (last + 1 < lines.length && indentOf(lines[last + 1]) > indentOf(lines[i])) last++;
    }
    for (let k = i; k <= last; k++) {
      out[k] = by > 0 ? " ".repeat(by) + lines[k] : lines[k].slice(-by);
    }
  } else if ((m = /^Indent lines? (\d+)(?: to (\d+))? by (\d+) (more|fewer) spaces?/.exec(hint))) {
    const by = Number(m[3]) * (m[4] === "more" ? 1 : -1);
    for (let k = Number(m[1]) - 1; k <= Number(m[2] ?? m[1]) - 1; k++) {
      out[k] = by > 0 ? " ".repeat(by) + lines[k] : lines[k].slice(-by);
    }
  } else if ((m = /replace the indentation of line (\d+) with (\d+) spaces/.exec(hint))) {
    out[Number(m[1]) - 1] = " ".repeat(Number(m[2])) + lines[Number(m[1]) - 1].trimStart();
  } else if ((m = /^Remove the "- " at the start of line (\d+)\.$/.exec(hint))) {
    out[Number(m[1]) - 1] = lines[Number(m[1]) - 1].slice(2);
  } else if ((m = /write "( *- name:)" here/.exec(hint))) {
    out[i] = lines[i].replace(/^ *name:/, m[1]);
  } else if (/remove or rename one/.test(hint)) {
    out.splice(i, 1); // remove the second one
  } else throw new Error(`no edit to follow in: ${hint}`);
  return out;
}

Deno.test("each YAML slip: validate and run say what was meant; the hint, followed, loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-slips-" });
  try {
    const names = Object.keys(SLIPS);
    const file = (k: number) => `${dir}/slip${String(k).padStart(2, "0")}.yaml`;
    for (const [k, name] of names.entries()) {
      const text = withSlip(SLIPS[name]).join("\n") + "\n";
      // The fast path gives up on each (a parser error, an empty value), so the full parser's
      // message is the one either way.
      assert.equal(fastParse(text), undefined, name);
      await Deno.writeTextFile(file(k), text);
    }
    const validate = await runCli(["validate", dir]);
    const run = await runCli(["run", dir]);
    assert.equal(validate.code, 2);
    assert.equal(run.code, 2);
    const fixed: string[] = [];
    const wrong: string[] = [];
    for (const [k, name] of names.entries()) {
      const slip = SLIPS[name];
      const where = file(k);
      const printed = `${where}:${
        slip.problem.replace(" ", " error[yaml-syntax]: YAML syntax error: ")
      }`;
      const seen: { line: number; hint: string }[] = [];
      for (const out of [validate.stdout + validate.stderr, run.stdout + run.stderr]) {
        const mine = out.split("\n").filter((l) =>
          l.startsWith(`${where}:`) && l.includes(" error[")
        );
        const hint = /\n {2}hint: (.*)\n/.exec(out.slice(out.indexOf(mine[0])))?.[1] ?? "";
        if (mine.length !== 1 || mine[0] !== printed || hint !== slip.hint) {
          wrong.push(`${name}:\n  ${mine.join("\n  ")}\n  hint: ${hint}`);
        }
        seen.push({ line: Number(mine[0]?.slice(where.length + 1).split(":")[0]), hint });
      }
      // No parser jargon leads the message: it follows only as detail.
      assert.doesNotMatch(
        slip.problem,
        /^\S+ (Alias|Implicit|Nested|All mapping|Plain value|Tabs|Map keys|A block)/,
        name,
      );
      // The hint as printed, followed as written.
      const edited = follow(withSlip(slip), seen[0].line, seen[0].hint).join("\n") + "\n";
      await Deno.writeTextFile(where, edited);
      fixed.push(name);
    }
    assert.deepEqual(wrong, []);
    assert.equal(fixed.length, names.length);
    const again = await runCli(["validate", dir]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(
      again.stdout + again.stderr,
      new RegExp(`^${names.length} flow files checked: no problems\.$`, "m"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a step's request: with its keys at the step's level: the hint indents them under it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-slips-" });
  try {
    const lines = [...BASE];
    lines.splice(6, 2, "    url: http://127.0.0.1:9/a", "    method: GET");
    await Deno.writeTextFile(`${dir}/f.yaml`, lines.join("\n") + "\n");
    const first = await runCli(["validate", `${dir}/f.yaml`]);
    const out = (first.stdout + first.stderr).replaceAll(`${dir}/`, "");
    assert.equal(first.code, 2, out);
    assert.match(
      out,
      /^f\.yaml:6:13 error\[wrong-type\]: Expected "request" of step "get" to be a map, got null\.$/m,
    );
    const hint = 'Indent lines 7 to 8 by 2 more spaces, under "request:" on line 6.';
    assert.ok(out.includes(`  hint: ${hint}\n`), out);
    await Deno.writeTextFile(`${dir}/f.yaml`, follow(lines, 6, hint).join("\n") + "\n");
    const second = await runCli(["validate", `${dir}/f.yaml`]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a request key two spaces short, at the step's level below request:, is told its column", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-slips-" });
  try {
    const lines = [...BASE];
    lines.splice(7, 1, "    method: GET");
    await Deno.writeTextFile(`${dir}/f.yaml`, lines.join("\n") + "\n");
    const first = await runCli(["validate", `${dir}/f.yaml`]);
    const out = (first.stdout + first.stderr).replaceAll(`${dir}/`, "");
    assert.equal(first.code, 2, out);
    assert.match(out, /^f\.yaml:8:5 error\[unknown-key\]: Unknown key "method" in step "get"\.$/m);
    const hint =
      'The method belongs under "request:": indent "method" 6 spaces, like "url" on line 7.';
    assert.ok(out.includes(`  hint: ${hint}\n`), out);
    await Deno.writeTextFile(`${dir}/f.yaml`, follow(lines, 8, hint).join("\n") + "\n");
    const second = await runCli(["validate", `${dir}/f.yaml`]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
