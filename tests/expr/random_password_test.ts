/**
 * `${RANDOM.PASSWORD}`: a fresh password that common strength rules take on
 * every draw (both cases, a digit, a sign; no three equal characters in a
 * row, no run like `abc` or `123`), which `Pw-${RANDOM.HEX_16}` missed in
 * about one draw of twenty (Unleash refused it: "The password may not contain
 * sequences of three or more repeated characters"). Checked over many draws,
 * sent by the CLI, and made by the Artillery export's processor.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { exportFresh } from "./fresh_processor.ts";
import { parseRef } from "../../lib/expr/ref.ts";
import { ExpressionSyntaxError } from "../../lib/expr/errors.ts";
import { evaluate, parseTemplate } from "../../lib/expr/template.ts";

/** Why `password` breaks a rule of the OWASP strength test and the usual class rules, or "". */
function broken(password: string): string {
  if (password.length < 12 || password.length > 64) return "length";
  for (const [name, re] of Object.entries({ upper: /[A-Z]/, lower: /[a-z]/, digit: /\d/ })) {
    if (!re.test(password)) return `no ${name}`;
  }
  if (!/[^A-Za-z0-9]/.test(password)) return "no sign";
  if (/(.)\1\1/.test(password)) return "three equal in a row";
  for (let i = 2; i < password.length; i++) {
    const [a, b, c] = [0, 1, 2].map((k) => password.charCodeAt(i - 2 + k));
    if (Math.abs(b - a) === 1 && c - b === b - a) return `run "${password.slice(i - 2, i + 1)}"`;
  }
  return /^[\x21-\x7e]+$/.test(password) ? "" : "not printable ASCII";
}

Deno.test("RANDOM.PASSWORD parses, and a wrong case is told the right one", () => {
  assert.deepEqual(parseRef("RANDOM.PASSWORD", { text: "", offset: 0 }), {
    kind: "random-password",
  });
  try {
    parseRef("RANDOM.password", { text: "${RANDOM.password}", offset: 2 });
    assert.fail("RANDOM.password parsed");
  } catch (error) {
    assert.ok(error instanceof ExpressionSyntaxError, String(error));
    assert.equal(error.message, 'Unknown random value "${RANDOM.password}".');
    assert.ok(error.hint?.startsWith("Did you mean ${RANDOM.PASSWORD}? "), error.hint);
  }
});

Deno.test("RANDOM.PASSWORD keeps every rule on 5,000 draws, and each draw is new", () => {
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const seen = new Set<string>();
  const template = parseTemplate("${RANDOM.PASSWORD}");
  for (let i = 0; i < 5_000; i++) {
    const password = evaluate(template, scope) as string;
    assert.equal(broken(password), "", password);
    seen.add(password);
  }
  assert.equal(seen.size, 5_000);
  // The old shape breaks the rules within as many draws: the test can fail.
  const old = parseTemplate("Pw-${RANDOM.HEX_16}");
  const failures = Array.from({ length: 5_000 }, () => broken(evaluate(old, scope) as string));
  assert.ok(failures.some((why) => why === "three equal in a row"));
});

Deno.test("flowrun run sends a fresh RANDOM.PASSWORD in a JSON body, the same in a flow var", async () => {
  const seen: Record<string, string>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(await req.json());
    return Response.json({});
  });
  const dir = await Deno.makeTempDir();
  try {
    const url = `http://127.0.0.1:${server.addr.port}/users`;
    await Deno.writeTextFile(
      `${dir}/signup.yaml`,
      `name: signup
vars:
  password: \${RANDOM.PASSWORD}
steps:
  - name: signup
    request: {method: POST, url: "${url}", body: {password: "\${vars.password}", other: "\${RANDOM.PASSWORD}"}}
  - name: login
    request: {method: POST, url: "${url}", body: {password: "\${vars.password}"}}
`,
    );
    const run = await runCli(["run", `${dir}/signup.yaml`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(seen.length, 2);
    assert.equal(broken(seen[0].password), "", seen[0].password);
    assert.equal(seen[1].password, seen[0].password);
    assert.notEqual(seen[0].other, seen[0].password);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the Artillery export makes RANDOM.PASSWORD fresh in its processor, by the same rules", async () => {
  for (let i = 0; i < 20; i++) {
    const fresh = await exportFresh("${RANDOM.PASSWORD}");
    assert.equal(fresh.text, "{{ f0_fresh_1 }}");
    assert.deepEqual(fresh.notes, []);
    const password = fresh.vars.f0_fresh_1 as string;
    assert.equal(broken(password), "", password);
  }
});
