/**
 * A number drawn again in a `while` loop until it differs from another, as a collection picks two
 * different rooms or seats: `let b = _.random(1, 100); while (b === a) { b = _.random(1, 100); }`,
 * with a counter bounding the loop too, or as a `do … while`. The loop was named as
 * untranslated, so `{{b}}` went out as written. Now `b` is a value the script could draw that
 * `a` never is: its own made value when the two can never meet, else the least of its range that
 * `a` never takes, the same in every run. A server accepts a pair only when both lie in the
 * range as numbers of a JSON body and differ; Newman and the flow (run twice) must both pass, for every spelling.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** Each spelling: the script, and the range both numbers lie in. */
const LOOPS: [string[], number, number][] = [
  [
    [
      "const a = _.random(1, 100);",
      "let b = _.random(1, 100);",
      "while (b === a) { b = _.random(1, 100); }",
    ],
    1,
    100,
  ],
  [
    [
      "const a = _.random(1, 100);",
      "let b = _.random(1, 100);",
      "let tries = 0;",
      "while (a == b && tries < 20) {",
      "  b = _.random(1, 100);",
      "  tries++;",
      "}",
    ],
    1,
    100,
  ],
  [
    [
      "var a = Math.floor(Math.random() * 10) + 1;",
      "var b;",
      "do { b = Math.floor(Math.random() * 10) + 1; } while (b === a);",
    ],
    1,
    10,
  ],
  [
    [
      "const a = 7;",
      "let b = Math.floor(Math.random() * 9) + 1;",
      "while (b === a) b = Math.floor(Math.random() * 9) + 1;",
    ],
    1,
    9,
  ],
];

function collection(script: string[], sets = ["a", "b"], origin?: string) {
  const test = "pm.test('200', () => pm.response.to.have.status(200));";
  return {
    info: { name: "Distinct draw", schema: V21 },
    variable: origin ? [{ key: "base", value: origin }] : [],
    item: [{
      name: "Pair",
      event: [
        {
          listen: "prerequest",
          script: {
            exec: [...script, ...sets.map((n) => `pm.environment.set('${n}', ${n});`)],
          },
        },
        { listen: "test", script: { exec: [test] } },
      ],
      request: {
        method: "POST",
        url: "{{base}}/pair",
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: `{${sets.map((n) => `"${n}": {{${n}}}`).join(", ")}}` },
      },
    }],
  };
}

Deno.test("postman: a number drawn until it differs from another differs in the flow too", async () => {
  let range = [0, 0];
  let accepted = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { a, b } = await req.json().catch(() => ({}));
    // Numbers, as Newman's raw body holds them, each inside the range, and not the same.
    const inside = (n: unknown) =>
      Number.isInteger(n) && n as number >= range[0] && n as number <= range[1];
    const ok = inside(a) && inside(b) && a !== b;
    if (ok) accepted++;
    return Response.json({ a, b }, { status: ok ? 200 : 400 });
  });
  const dir = await Deno.makeTempDir();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    const values = [{ key: "base", value: origin }];
    await Deno.writeTextFile(`${dir}/env.json`, JSON.stringify({ name: "local", values }));
    for (const [i, [script, low, high]] of LOOPS.entries()) {
      range = [low, high];
      accepted = 0;
      const file = `${dir}/c${i}.json`;
      await Deno.writeTextFile(file, JSON.stringify(collection(script)));
      const counts = await runNewman(file, { base: origin });
      assert.equal(counts.failedAssertions, 0, `Newman: ${script.join(" ")}`);
      const out = `${dir}/out${i}`;
      const converted = await runCli([
        "convert",
        "postman",
        file,
        "-e",
        `${dir}/env.json`,
        "-o",
        out,
      ]);
      assert.equal(converted.code, 0, converted.stderr);
      assert.doesNotMatch(converted.stderr, /Not translated/, converted.stderr);
      const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
      for (const round of [1, 2]) {
        const run = await runCli(line.split(" "), { env: { BASE_URL: origin } });
        assert.equal(run.code, 0, `${script.join(" ")}: run ${round}\n${run.stdout}${run.stderr}`);
      }
      assert.equal(accepted, 3, script.join(" "));
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Drawn again until past a bound: the script, and the range the value must lie in. */
const BOUNDS: [string[], number, number][] = [
  // A ServeRest tester's quantity: 0 to 999, drawn again while not above 100.
  [
    [
      "var q = Math.floor(Math.random() * 1000)",
      "while(q <= 100) {",
      "    q = Math.floor(Math.random() * 1000)",
      "    console.log('q: ', q)",
      "}",
    ],
    101,
    999,
  ],
  [["let q = _.random(1, 100);", "while (10 > q) q = _.random(1, 100);"], 10, 100],
];

Deno.test("postman: a number drawn until it passes a bound passes it in the flow too", async () => {
  let range = [0, 0];
  let accepted = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { q } = await req.json().catch(() => ({}));
    const ok = Number.isInteger(q) && q >= range[0] && q <= range[1];
    if (ok) accepted++;
    return Response.json({ q }, { status: ok ? 200 : 400 });
  });
  const dir = await Deno.makeTempDir();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const [i, [script, low, high]] of BOUNDS.entries()) {
      range = [low, high];
      accepted = 0;
      const c = collection(script, ["q"], origin);
      const file = `${dir}/b${i}.json`;
      await Deno.writeTextFile(file, JSON.stringify(c));
      const counts = await runNewman(file, { base: origin });
      assert.equal(counts.failedAssertions, 0, `Newman: ${script.join(" ")}`);
      const out = `${dir}/bout${i}`;
      const converted = await runCli(["convert", "postman", file, "-o", out]);
      assert.equal(converted.code, 0, converted.stderr);
      assert.doesNotMatch(converted.stderr, /Not translated/, converted.stderr);
      const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
      for (const round of [1, 2]) {
        const run = await runCli(line.split(" "), { env: { BASE_URL: origin } });
        assert.equal(run.code, 0, `${script.join(" ")}: run ${round}\n${run.stdout}${run.stderr}`);
      }
      assert.equal(accepted, 3, script.join(" "));
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
