/**
 * A flow file that cannot be read is quoted in its problem: the line it is on (the excerpt under
 * the message), and a YAML slip's hint writes that line as it should be. A secret the run knows
 * (an environment variable another flow reads) that the file writes in clear was masked only when
 * it is 8 characters or more: a short random password (`Zq7#x!`) showed in the console, the
 * `::error` annotation and the JSON report's `problems`. The file's text is a value: a secret in
 * it is masked, a short one too unless it is an ordinary word (`value`), which the flow writes
 * itself and flowrun's hint says (`Close it at the end of the value`), as for a request's text
 * (docs/secrets.md, "masked where it was substituted").
 */
import assert from "node:assert/strict";
import { runTexts } from "./short_secret_artifacts.ts";
import { runCli } from "../support/cli.ts";

const ENV = {
  PASSWORD: "Zq7#x!",
  PIN_CODE: "k9!w",
  WORD_PASSWORD: "value",
  API_TOKEN: "tok_9fK2mQ7rX4vB8nL3pW6s",
};

/** Reads every secret, so the run knows them before the other file's problems are told. */
const READS = `name: reads
steps:
  - name: s
    request:
      url: "http://127.0.0.1:9/x?p=\${ENV.PASSWORD}&n=\${ENV.PIN_CODE}&w=\${ENV.WORD_PASSWORD}"
      headers: {x-token: "\${ENV.API_TOKEN}"}
`;

/** YAML slips on lines that write the secrets in clear, in places that are not secret by name. */
const SLIPS = {
  "quote.yaml": `name: quote
steps:
  - name: s
    request:
      url: "http://127.0.0.1:9/x?k=Zq7#x!&n=k9!w&v=value&t=tok_9fK2mQ7rX4vB8nL3pW6s&e=Zq7%23x%21
`,
  "indent.yaml": `name: indent
steps:
  - name: s
    request:
      url: http://127.0.0.1:9/x
      headers:
        x-one: "Zq7#x! k9!w"
       x-two: tok_9fK2mQ7rX4vB8nL3pW6s
`,
  "flow.yaml": `name: flow
steps:
  - name: s
    request: {url: "http://127.0.0.1:9/x", headers: {x-a: Zq7#x!, x-b: value k9!w: 1}}
`,
};

Deno.test("a problem quoting a flow file's line masks the secrets the line writes, short ones too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-load-problem-" });
  try {
    const w = await runTexts({ "reads.yaml": READS, ...SLIPS }, dir, ENV);
    assert.equal(w.code, 2, w.console);
    for (const text of w.texts) {
      for (const leak of ["Zq7#x!", "k9!w", ENV.API_TOKEN, "Zq7%23x"]) {
        assert.ok(!text.includes(leak), `${leak} in ${text.slice(0, 600)}`);
      }
    }
    // What the lines are is still shown, and the ordinary word the flow wrote and the hint says.
    assert.match(w.console, /url: "http:\/\/127\.0\.0\.1:9\/x\?k=\*\*\*&n=\*\*\*&v=value&t=\*\*\*/);
    assert.match(w.console, /Close it at the end of the value: url: "/);
    assert.match(w.console, /x-two: \*\*\*/);
    assert.match(w.console, /x-a: \*\*\*, x-b: value \*\*\*: 1/);
    // flowrun validate tells the same problems.
    const files = ["reads.yaml", ...Object.keys(SLIPS)].map((f) => `${dir}/${f}`);
    const validate = await runCli(["validate", ...files], { env: ENV });
    for (const leak of ["Zq7#x!", "k9!w", ENV.API_TOKEN, "Zq7%23x"]) {
      assert.ok(
        !(validate.stdout + validate.stderr).includes(leak),
        validate.stdout + validate.stderr,
      );
    }
    assert.match(validate.stdout + validate.stderr, /x-a: \*\*\*, x-b: value \*\*\*: 1/);
    const problems = (w.report as unknown as { problems: { hint?: string }[] }).problems;
    assert.ok(problems.some((p) => p.hint?.includes("the value: url:")), JSON.stringify(problems));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
