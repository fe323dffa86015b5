/**
 * Hostile input, generated: the example flows mutated (flipped bytes,
 * deleted, repeated and swapped lines, truncation, random YAML tokens, huge
 * and special numbers, deep nesting, alias bombs, megabyte lines) must give
 * positioned problems with documented codes, in bounded size and time, and
 * never an exception. A few mutants also go through `flowrun validate` as a
 * subprocess: exit 0 or 2, no internal error, no stack trace.
 *
 * Seeded, so a failure names the seed and mutation that reproduce it.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../lib/load/load_flow.ts";
import { formatProblems, style } from "../lib/report/console.ts";
import { root, runCli } from "./support/cli.ts";
import "./support/engines.ts";
import { PROTOTYPE_NAMES, random } from "./support/hostile.ts";
import { assertCostsLike } from "./support/timing.ts";

const SEED = Number(Deno.env.get("FLOWRUN_FUZZ_SEED") ?? 20261122);
const MUTANTS = Number(Deno.env.get("FLOWRUN_FUZZ_MUTANTS") ?? 2000);
const CLI_MUTANTS = 30;

async function examples(): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const dir of ["examples/flows", "examples/recipes"]) {
    for await (const entry of Deno.readDir(`${root}${dir}`)) {
      if (entry.isFile && entry.name.endsWith(".yaml")) {
        const file = `${dir}/${entry.name}`;
        out.push({ file, text: await Deno.readTextFile(`${root}${file}`) });
      }
    }
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}

const TOKENS = [
  ": ",
  "- ",
  "? ",
  "[",
  "]",
  "{",
  "}",
  ",",
  "&a ",
  "*a",
  "<<: *a",
  "!!binary ",
  "!!int ",
  "|",
  ">-",
  "'",
  '"',
  "#",
  "\t",
  "\n",
  "---\n",
  "...\n",
  "%YAML 1.2\n",
  "${",
  "${ENV.",
  "$${",
  ":-",
  "${ENV.A:-${ENV.B}}",
  "${RANDOM.HEX_99999}",
  "\x00",
  "\x1b[2J",
  "\u202e",
  "\ufeff",
  "\ud800",
  "€",
  "method: TRACE",
  "method: GET\n      body: {a: 1}",
  'headers: {x-a: "a\\r\\nb"}',
  "max_attempts: 1e300",
  "sleep_ms: 2147483648",
];

const NUMBERS = ["1e400", "12345678901234567890", "-0x1FFFFFFFFFFFFF", ".nan", "-.inf", "0.1e-999"];

type Mutation = (text: string, r: () => number) => string;

const pick = <T>(list: readonly T[], r: () => number): T => list[Math.floor(r() * list.length)];
const at = (text: string, r: () => number) => Math.floor(r() * (text.length + 1));
const lines = (text: string) => text.split("\n");

const MUTATIONS: Record<string, Mutation> = {
  flip(text, r) {
    const chars = [...text];
    for (let n = 1 + Math.floor(r() * 4); n > 0; n--) {
      chars[Math.floor(r() * chars.length)] = String.fromCharCode(Math.floor(r() * 256));
    }
    return chars.join("");
  },
  deleteLine(text, r) {
    const l = lines(text);
    l.splice(Math.floor(r() * l.length), 1 + Math.floor(r() * 3));
    return l.join("\n");
  },
  duplicateLine(text, r) {
    const l = lines(text);
    const i = Math.floor(r() * l.length);
    l.splice(i, 0, ...Array(1 + Math.floor(r() * 3)).fill(l[i]));
    return l.join("\n");
  },
  swapLines(text, r) {
    const l = lines(text);
    const i = Math.floor(r() * l.length);
    const j = Math.floor(r() * l.length);
    [l[i], l[j]] = [l[j], l[i]];
    return l.join("\n");
  },
  truncate(text, r) {
    return text.slice(0, at(text, r));
  },
  token(text, r) {
    const i = at(text, r);
    return text.slice(0, i) + pick(TOKENS, r) + text.slice(i);
  },
  number(text, r) {
    const numbers = [...text.matchAll(/\b\d+\b/g)];
    if (numbers.length === 0) return text + `\nx-n: ${pick(NUMBERS, r)}\n`;
    const m = pick(numbers, r);
    return text.slice(0, m.index) + pick(NUMBERS, r) + text.slice(m.index! + m[0].length);
  },
  nest(text, r) {
    const i = at(text, r);
    const depth = 200 + Math.floor(r() * 5000);
    const open = pick(["[", "{a: ", "- ", "? "], r);
    return text.slice(0, i) + open.repeat(depth) + text.slice(i);
  },
  aliasBomb(text, r) {
    let bomb = "\nx-b0: &b0 [1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
    const levels = 5 + Math.floor(r() * 15);
    for (let i = 1; i <= levels; i++) {
      bomb += `x-b${i}: &b${i} [*b${i - 1}, *b${i - 1}, *b${i - 1}]\n`;
    }
    return text + bomb;
  },
  prototypeName(text, r) {
    // A key or a value named like an Object.prototype member: an ordinary name everywhere.
    const names = [...text.matchAll(/(?<=^\s*(?:- )?)[A-Za-z_]\w*(?=:)|(?<=: )[A-Za-z_]\w*$/gm)];
    const name = pick(PROTOTYPE_NAMES, r);
    if (names.length === 0) return `${text}\n${name}: ${name}\n`;
    const m = pick(names, r);
    return text.slice(0, m.index) + name + text.slice(m.index! + m[0].length);
  },
  longLine(text, r) {
    const l = lines(text);
    const i = Math.floor(r() * l.length);
    l[i] = l[i] + pick([" x", ", ]", "a: ", "${"], r).repeat(20_000 + Math.floor(r() * 40_000));
    return l.join("\n");
  },
};

const NAMES = Object.keys(MUTATIONS);

/** A mutant: 1 to 3 mutations applied to one example. */
function mutant(
  sources: { file: string; text: string }[],
  r: () => number,
): { label: string; text: string } {
  const source = pick(sources, r);
  let text = source.text;
  const applied: string[] = [];
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) {
    const name = pick(NAMES, r);
    text = MUTATIONS[name](text, r);
    applied.push(name);
  }
  return { label: `${source.file} + ${applied.join(", ")}`, text };
}

/**
 * How many times an ordinary flow of its length the slowest mutant may cost to load: 16 measured
 * (a line of a megabyte, at a load of 20 on two cores; an alias bomb stopped at its limit costs
 * up to 10); a quadratic blow-up on a mutant of 100 KB, thousands.
 */
const SLOWEST_MUTANT = 60;

async function documentedCodes(): Promise<Set<string>> {
  const text = await Deno.readTextFile(`${root}docs/troubleshooting.md`);
  return new Set([...text.matchAll(/^## ([a-z][a-z0-9-]*)\s*$/gm)].map((m) => m[1]));
}

Deno.test(`mutated example flows load into positioned, documented, bounded problems (seed ${SEED})`, async () => {
  const sources = await examples();
  assert.ok(sources.length >= 8, "the examples are the corpus");
  const codes = await documentedCodes();
  const r = random(SEED);
  const seen = new Map<string, number>();
  let slowest = { ms: 0, label: "", text: "" };
  for (let i = 0; i < MUTANTS; i++) {
    const { label, text } = mutant(sources, r);
    const where = `mutant ${i} (seed ${SEED}: ${label})`;
    const t0 = performance.now();
    let result;
    try {
      result = loadFlow(text, "m.yaml", { env: (name) => (name === "UNSET" ? undefined : "x") });
    } catch (error) {
      assert.fail(`${where} threw: ${(error as Error).stack}`);
    }
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, label: where, text };
    const { problems, flow } = result;
    assert.ok((flow === undefined) === (problems.length > 0), `${where}: a flow or problems`);
    assert.ok(problems.length <= 101, `${where}: ${problems.length} problems`);
    const lineCount = text.split("\n").length;
    for (const p of problems) {
      seen.set(p.code, (seen.get(p.code) ?? 0) + 1);
      assert.ok(codes.has(p.code), `${where}: code ${p.code} has no section in troubleshooting.md`);
      assert.ok(
        Number.isInteger(p.line) && p.line >= 1 && p.line <= lineCount + 1,
        `${where}: line ${p.line} of ${lineCount} (${p.code}: ${p.message})`,
      );
      assert.ok(Number.isInteger(p.column) && p.column >= 1, `${where}: column ${p.column}`);
      assert.ok(p.message.length > 0 && p.message.length <= 2100, `${where}: message length`);
      assert.ok((p.excerpt?.length ?? 0) <= 240, `${where}: excerpt of ${p.excerpt?.length}`);
    }
    const shown = formatProblems(problems, style(false));
    assert.ok(shown.length < 101 * 3000, `${where}: ${shown.length} characters shown`);
    assert.ok(!shown.includes("\x1b"), `${where}: a raw escape character reached the console text`);
  }
  // Every kind of limit was met by some mutant, so the corpus exercises what it claims.
  for (const code of ["yaml-syntax", "yaml-too-deep", "yaml-too-large", "out-of-range"]) {
    assert.ok(seen.has(code), `no mutant gave ${code}: ${[...seen.keys()].join(", ")}`);
  }
  // A guard against blow-ups (a mutant that makes loading quadratic), not a speed test: the
  // slowest mutant, timed again, against an ordinary flow of its length (a flat list of numbers)
  // loaded in this process, so a busy machine slows both alike; speed is bench/'s.
  const items = Math.min(100_000, Math.max(1, Math.floor(slowest.text.length / 2)));
  const ordinary = `name: x\nsteps:\n  - name: a\n    request:\n      method: POST\n` +
    `      url: http://x.test\n      body: [${"1,".repeat(items - 1)}1]\n`;
  const load = (text: string) => () => loadFlow(text, "m.yaml", { env: () => "x" });
  assertCostsLike(slowest.label, load(slowest.text), load(ordinary), SLOWEST_MUTANT);
});

Deno.test(`mutants through flowrun validate: exit 0 or 2, no internal error, no stack trace (seed ${SEED})`, async () => {
  const sources = await examples();
  const r = random(SEED + 1);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-fuzz-" });
  try {
    const files: { path: string; label: string }[] = [];
    for (let i = 0; i < CLI_MUTANTS; i++) {
      const { label, text } = mutant(sources, r);
      const path = `${dir}/m${i}.yaml`;
      let bytes = new TextEncoder().encode(text);
      // Some mutants are not UTF-8 at all.
      if (i % 10 === 9) {
        bytes = Uint8Array.from([...bytes.slice(0, 40), 0xff, 0xfe, ...bytes.slice(40)]);
      }
      await Deno.writeFile(path, bytes);
      files.push({ path, label });
    }
    // Two at a time: the machine running the suite is shared.
    for (let i = 0; i < files.length; i += 2) {
      await Promise.all(
        files.slice(i, i + 2).map(async ({ path, label }) => {
          const run = await runCli(["validate", path], { env: { BASE_URL: "http://127.0.0.1:9" } });
          const output = run.stdout + run.stderr;
          const where = `${path} (seed ${SEED + 1}: ${label})`;
          assert.ok(
            [0, 2].includes(run.code),
            `${where}: exit ${run.code}\n${output.slice(0, 2000)}`,
          );
          assert.ok(!/internal error/i.test(output), `${where}: ${output.slice(0, 2000)}`);
          assert.ok(
            !output.includes("    at "),
            `${where}: a stack trace\n${output.slice(0, 2000)}`,
          );
          assert.ok(output.length < 400_000, `${where}: ${output.length} characters of output`);
        }),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
