/**
 * A flow file may write a secret with YAML's escapes: `"Zq\x37#x!"`, `"tok_\u0039fK2…"`,
 * `"\U00000037"`, or an escape YAML rejects (`"Zq7\#x!"`, `"…rX4v\B8nL…"`), which the user meant
 * as the character after the backslash. A problem that quotes such a line (an unclosed quote, the
 * invalid escape itself) showed the secret as written: only JSON's `\uXXXX` was decoded before
 * matching, so `\x37` and `\#` kept a known password whole and split a token's 16-character pieces.
 * And a secret the file writes in a secret place with an invalid escape in it (`password:
 * "Wq8!yz\q"`) stands across the caret YAML puts on that escape: masked before and after the caret
 * apart, neither part held it. A secret is known by its decoded value, found inside backslash
 * escapes of any of these forms, and masked whole where it stands across the caret. At run time
 * a secret var written with escapes, folded, as a block or in a flow map is the value YAML reads.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, runTexts } from "./short_secret_artifacts.ts";

const TOKEN = "tok_9fK2mQ7rX4vB8nL3pW6s";
const ENV = { PASSWORD: "Zq7#x!", API_TOKEN: TOKEN };

/** Reads every secret, so the run knows them before the other files' problems are told. */
const READS = `name: reads
steps:
  - name: s
    request:
      url: "http://127.0.0.1:9/x?p=\${ENV.PASSWORD}&t=\${ENV.API_TOKEN}"
`;

const head = (name: string) => `name: ${name}\nsteps:\n  - name: s\n    request:\n`;

/** Lines a problem quotes, each writing a secret through escapes. */
const SLIPS: Record<string, string> = {
  // Never closed: the whole line is quoted, and the hint writes it again.
  "hex.yaml": head("hex") +
    '      url: "http://127.0.0.1:9/x?k=Zq\\x37#x!&t=tok_9fK2mQ\\x37rX4vB8nL3pW6s&u=Zq\\U00000037#x!\n',
  // Escapes YAML rejects: the caret stands on the first, inside the password.
  "invalid.yaml": head("invalid") +
    '      url: "http://127.0.0.1:9/x?k=Zq7\\#x!&t=tok_9fK2mQ7rX4v\\B8nL3pW6s"\n',
  // Written in secret places by the file itself; the caret is on `\q`, inside the password.
  "place.yaml": head("place") +
    '      headers: {authorization: "Bearer tok_9fK2\\x6dQ7rX4vB8nL3pW6s"}\n' +
    '      body: {password: "Wq8!yz\\q"}\n',
};

/** What no artifact may hold: each secret decoded, as written, and the pieces around an escape. */
const LEAKS = [
  "Zq7#x!",
  "Zq\\x37",
  "Zq7\\#",
  "Zq\\U",
  "Wq8!yz",
  "tok_9fK2",
  "rX4vB8nL3pW6s",
  "B8nL3pW6s",
];

Deno.test("a secret a flow file writes with YAML escapes is masked in the problems quoting it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-yaml-escape-" });
  try {
    const w = await runTexts({ "reads.yaml": READS, ...SLIPS }, dir, ENV);
    assert.equal(w.code, 2, w.console);
    for (const text of w.texts) {
      for (const leak of LEAKS) assert.ok(!text.includes(leak), `${leak} in ${text.slice(0, 600)}`);
    }
    // What the lines are is still shown.
    assert.match(w.console, /x\?k=\*\*\*&t=\*\*\*&u=\*\*\*/);
    assert.match(w.console, /body: \{password: "\*\*\*"\}/);
    assert.match(w.console, /Invalid escape sequence \\#/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Vars written with escapes, folded, as a block and in a flow map, sent in secret places. */
const VARS = `name: vars
vars:
  a: "Zq\\x37#x!"
  b: "tok_\\u0039fK2mQ7rX4vB8nL3pW6s"
  c: >-
    Wq8!
    yz
  d: |-
    Pq9!ab
  e: {x: Kk7!mm }
steps:
  - name: s
    request:
      method: POST
      url: "\${ENV.BASE_URL}/echo?q=\${vars.a}"
      headers: {x-api-key: "\${vars.b}"}
      body: {password: "\${vars.a}", passphrase: "\${vars.c}", pin: "\${vars.d}", pwd: "\${vars.e.x}"}
    assert:
      json:
        - {path: $.json.got, equals: "no"}
`;

Deno.test("a secret var written with YAML escapes, folded or as a block is known by its value", async () => {
  const w = await runFlowText(VARS, {});
  assert.equal(w.code, 1, w.console);
  noLeak(w, ["Zq7#x!", "Zq7%23x", TOKEN, "Wq8! yz", "Wq8!%20yz", "Pq9!ab", "Kk7!mm"]);
  assert.match(w.console, /\$\.json\.got: expected "no", got "\*\*\*"/);
});
