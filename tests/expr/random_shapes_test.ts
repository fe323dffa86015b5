/**
 * `${RANDOM.DIGITS_<n>}` and `${RANDOM.BOOL}`: a number of n digits and a
 * boolean, which keep their type alone in a string and are text inside
 * text; sent by the CLI to a server on 127.0.0.1 in a JSON body and a URL.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { exportFresh } from "./fresh_processor.ts";
import { parseRef } from "../../lib/expr/ref.ts";
import { ExpressionSyntaxError } from "../../lib/expr/errors.ts";
import { evaluate, parseTemplate } from "../../lib/expr/template.ts";

const at = { text: "", offset: 0 };

Deno.test("RANDOM.DIGITS_n and RANDOM.BOOL parse, within their bounds", () => {
  assert.deepEqual(parseRef("RANDOM.DIGITS_3", at), { kind: "random-digits", length: 3 });
  assert.deepEqual(parseRef("RANDOM.DIGITS_15", at), { kind: "random-digits", length: 15 });
  assert.deepEqual(parseRef("RANDOM.BOOL", at), { kind: "random-bool" });
  for (
    const [inner, hint] of [
      ["RANDOM.DIGITS_0", "Use ${RANDOM.UUID}"],
      ["RANDOM.DIGITS_16", "Use ${RANDOM.UUID}"],
      ["RANDOM.digits_4", "Did you mean ${RANDOM.DIGITS_4}? "],
      ["RANDOM.bool", "Did you mean ${RANDOM.BOOL}? "],
      ["RANDOM.INT", "Use ${RANDOM.UUID}"],
    ]
  ) {
    try {
      parseRef(inner, { text: `\${${inner}}`, offset: 4 });
      assert.fail(`${inner} parsed`);
    } catch (error) {
      assert.ok(error instanceof ExpressionSyntaxError, String(error));
      assert.equal(error.message, `Unknown random value "\${${inner}}".`);
      assert.equal(error.offset, 4);
      assert.ok(error.hint?.startsWith(hint), `${inner}: ${error.hint}`);
      assert.ok(error.hint?.includes("${RANDOM.DIGITS_<n>} with n from 1 to 15"), error.hint);
    }
  }
});

Deno.test("RANDOM.DIGITS_n is a number of n digits alone and its digits in text; BOOL both values", () => {
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const digits = new Set<number>();
  const bools = new Set<unknown>();
  // 200 draws: each of the 9 leading digits and both booleans turn up (a miss is < 1e-9).
  for (let i = 0; i < 200; i++) {
    const n = evaluate(parseTemplate("${RANDOM.DIGITS_4}"), scope) as number;
    assert.ok(Number.isInteger(n) && n >= 1000 && n <= 9999, String(n));
    digits.add(Math.floor(n / 1000));
    bools.add(evaluate(parseTemplate("${RANDOM.BOOL}"), scope));
  }
  assert.equal(digits.size, 9);
  assert.deepEqual([...bools].sort(), [false, true]);
  const big = evaluate(parseTemplate("${RANDOM.DIGITS_15}"), scope) as number;
  assert.ok(Number.isSafeInteger(big) && String(big).length === 15);
  assert.match(
    evaluate(parseTemplate("+1 ${RANDOM.DIGITS_3}-${RANDOM.DIGITS_4}"), scope) as string,
    /^\+1 \d{3}-\d{4}$/,
  );
  assert.match(evaluate(parseTemplate("ok=${RANDOM.BOOL}"), scope) as string, /^ok=(true|false)$/);
});

Deno.test("flowrun run sends RANDOM.DIGITS_n as a JSON number and RANDOM.BOOL as a JSON boolean", async () => {
  const seen: { query: string; body: Record<string, unknown> }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push({ query: new URL(req.url).search, body: await req.json() });
    return Response.json({});
  });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/shapes.yaml`,
      `name: shapes
steps:
  - name: order
    request:
      method: POST
      url: "http://127.0.0.1:${server.addr.port}/orders?n=\${RANDOM.DIGITS_3}&ok=\${RANDOM.BOOL}"
      body: {qty: "\${RANDOM.DIGITS_3}", gift: "\${RANDOM.BOOL}", phone: "\${RANDOM.DIGITS_3}-\${RANDOM.DIGITS_4}"}
`,
    );
    const run = await runCli(["run", `${dir}/shapes.yaml`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(seen.length, 1);
    assert.match(seen[0].query, /^\?n=[1-9]\d\d&ok=(true|false)$/);
    const { qty, gift, phone } = seen[0].body;
    assert.ok(
      Number.isInteger(qty) && (qty as number) >= 100 && (qty as number) <= 999,
      String(qty),
    );
    assert.equal(typeof gift, "boolean");
    assert.match(phone as string, /^\d{3}-\d{4}$/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the Artillery export makes RANDOM.DIGITS_n and RANDOM.BOOL fresh in its processor", async () => {
  const fresh = await exportFresh("/o?n=${RANDOM.DIGITS_5}&ok=${RANDOM.BOOL}");
  assert.equal(fresh.text, "/o?n={{ f0_fresh_1 }}&ok={{ f0_fresh_2 }}");
  assert.deepEqual(fresh.notes, []);
  const n = fresh.vars.f0_fresh_1 as number;
  assert.ok(Number.isInteger(n) && n >= 10_000 && n <= 99_999, String(n));
  assert.equal(typeof fresh.vars.f0_fresh_2, "boolean");
});
