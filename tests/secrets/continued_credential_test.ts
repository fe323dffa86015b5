/**
 * A credential a flow file writes in a secret place may go on over the next lines: a folded or
 * literal block (`authorization: >-` then `Bearer` and the token below), a plain value continued
 * on a deeper line, a value on the line after its key, or a token a slip left at the key's own
 * indent. Only the key's own line was read for credentials, so a YAML problem quoting the next
 * line (a token followed by `: x`, a bare token YAML takes for a key) showed the token in its
 * message, its excerpt and its hint. The lines a secret-place value goes on over are read with
 * it; a map under a secret-looking key (`session: {header: set-cookie}` written as a block) is
 * still read as pairs, its words readable.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const TOKEN = "tok_9fK2mQ7rX4vB8nL3pW6s";
const head = "name: f\nsteps:\n  - name: s\n    request:\n      url: http://127.0.0.1:9/x\n";

/** Each file's lines after the request's URL, and what its problem must still show. */
const FILES: [string, RegExp][] = [
  [`      headers:\n        authorization: Bearer\n          ${TOKEN}: x\n`, /\*\*\*: x/],
  [
    `      headers:\n        authorization: >-\n          Bearer\n        ${TOKEN}\n`,
    /^9 \| +\*\*\*$/m,
  ],
  // Deeper than the block's first line: YAML rejects it; its words stay (`1 more on this line`).
  [
    `      method: POST\n      body:\n        password: |\n            Zq7#x!yz\n          more\n`,
    /1 more on this line/,
  ],
  [
    `      method: POST\n      body:\n        password: >\n          Zq7#x!yz\n        "more\n`,
    /"more/,
  ],
];

Deno.test("a credential continued over the next lines is masked in the problem quoting them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-continued-" });
  try {
    for (const [i, [lines, shown]] of FILES.entries()) {
      await Deno.writeTextFile(`${dir}/f${i}.yaml`, head + lines);
      const cli = await runCli(["run", `${dir}/f${i}.yaml`, "--out-dir", `${dir}/out`]);
      const output = cli.stdout + cli.stderr;
      assert.equal(cli.code, 2, output);
      for (const leak of [TOKEN.slice(0, 10), TOKEN.slice(-10), "Zq7#x!yz"]) {
        assert.ok(!output.includes(leak), `${leak} in ${output}`);
      }
      assert.match(output, shown);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a map under a secret-looking key keeps its words in a problem", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-continued-map-" });
  try {
    const flow = head + "    capture:\n      session:\n        header: set-cookie\n       x: 1\n";
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    const cli = await runCli(["run", `${dir}/f.yaml`, "--out-dir", `${dir}/out`]);
    const output = cli.stdout + cli.stderr;
    assert.equal(cli.code, 2, output);
    assert.match(output, /Indent "x" 8 spaces, like "header"/);
    assert.ok(!output.includes("***"), output);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
