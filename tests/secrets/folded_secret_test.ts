/**
 * A secret the run knows (a passphrase another flow reads from the environment) that a flow file
 * writes across lines, folded or continued (`x-one: >-` then its words on the lines below, a
 * quoted value left open on its first line): a problem quoting one of those lines showed the piece
 * on it. The redactor matches a secret in a text, and the line holds only a piece: `k9!w` on a
 * line of its own, `"Zq7#x!` where the quote was left open, `"X4vB8nL3pW6s" on line 8` in the
 * parser's message. A piece of a known secret's words standing where a folded value's piece
 * stands (ending a line with the value's beginning, beginning a line with its end, a line or a
 * quoted stretch of its own) is masked in a problem's excerpt, message and hint, in every
 * artifact; an ordinary word alone is the file's own text and stays.
 */
import assert from "node:assert/strict";
import { noLeak, runTexts } from "./short_secret_artifacts.ts";
import { runCli } from "../support/cli.ts";

const ENV = { PASSPHRASE: "Zq7#x! k9!w", API_TOKEN: "tok_9fK2mQ7r X4vB8nL3pW6s" };

/** Reads every secret, so the run knows them before the other files' problems are told. */
const READS = `name: reads
steps:
  - name: s
    request:
      url: "http://127.0.0.1:9/x"
      headers: {x-a: "\${ENV.PASSPHRASE}", x-b: "\${ENV.API_TOKEN}"}
`;

const head = (name: string) =>
  `name: ${name}\nsteps:\n  - name: s\n    request:\n      url: http://127.0.0.1:9/x\n      headers:\n`;

const SLIPS = {
  // A folded value whose second line is less indented than its first: the parser quotes it.
  "folded.yaml": head("folded") + "        x-one: >-\n            Zq7#x!\n          k9!w\n",
  // A plain value continued on a deeper line that YAML reads as a key.
  "continued.yaml": head("continued") + "        x-two: tok_9fK2mQ7r\n          X4vB8nL3pW6s: 1\n",
  // A quote left open on the value's first line.
  "open.yaml": head("open") + '        x-three: "Zq7#x!\n          k9!w\n',
};

const LEAKS = ["Zq7#x!", "k9!w", "X4vB8nL3pW6s", "tok_9fK2mQ7r"];

Deno.test("a known secret a flow file writes across lines shows in no problem quoting a line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-folded-" });
  try {
    const w = await runTexts({ "reads.yaml": READS, ...SLIPS }, dir, ENV);
    assert.equal(w.code, 2, w.console);
    noLeak(w, LEAKS);
    // The lines are still shown, each piece masked where it stands.
    assert.match(w.console, /(^|\n)9 \| {11}\*\*\*\n/);
    assert.match(w.console, /x-three: "\*\*\*\n/);
    assert.match(w.console, /\*\*\*: 1\n/);
    const files = ["reads.yaml", ...Object.keys(SLIPS)].map((f) => `${dir}/${f}`);
    const validate = await runCli(["validate", ...files], { env: ENV });
    const said = validate.stdout + validate.stderr;
    for (const leak of LEAKS) assert.ok(!said.includes(leak), said);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
