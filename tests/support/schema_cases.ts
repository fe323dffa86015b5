/**
 * A step per response body under an `openapi:` check, each served by a server started here: so a
 * schema rule is shown both admitting and refusing, through the CLI and its JSON report.
 */
import assert from "node:assert/strict";
import { runCli } from "./cli.ts";

/** A body the server answers, and the violation its check reports (`undefined`: it passes). */
export type SchemaCase = [Record<string, unknown>, RegExp | undefined];

/** The flow: step `s<n>` asks for `/thing/<n>`, each checked against `api.json`. */
function flowOf(name: string, cases: readonly SchemaCase[]): string {
  return `name: ${name}\nsteps:\n${
    cases.map((_, n) =>
      `  - name: s${n}\n    request: {url: "\${ENV.BASE_URL}/thing/${n}"}\n` +
      `    assert: {status: 200, openapi: api.json}\n    always: true\n`
    ).join("")
  }`;
}

/** A 3.0 document whose one operation, `GET /thing/{n}`, answers `schema`. */
function documentOf(name: string, schema: unknown): unknown {
  const content = { "application/json": { schema } };
  return {
    openapi: "3.0.3",
    info: { title: name, version: "1" },
    paths: { "/thing/{n}": { get: { responses: { "200": { description: "one", content } } } } },
  };
}

/**
 * Runs `cases` against a document whose `/thing/{n}` answers are checked against `schema`, and
 * asserts each step's verdict and violation; `never` is what the output must not say (the
 * refusal fixed).
 */
export async function checkSchemaCases(
  name: string,
  schema: unknown,
  cases: readonly SchemaCase[],
  never: RegExp,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json(cases[Number(new URL(req.url).pathname.split("/")[2])][0]),
  );
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(documentOf(name, schema)));
    await Deno.writeTextFile(`${dir}/f.yaml`, flowOf(name, cases));
    const env = { BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}` };
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
    const said = run.stdout + run.stderr;
    assert.doesNotMatch(said, never, said);
    assert.equal(run.code, cases.some(([, v]) => v) ? 1 : 0, said);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps: { name: string; status: string; assertions: { message: string }[] }[] =
      report.flows[0].steps;
    assert.equal(steps.length, cases.length);
    for (const [n, [body, violation]] of cases.entries()) {
      const step = steps.find((s) => s.name === `s${n}`)!;
      const messages = step.assertions.map((a) => a.message).join("\n");
      assert.equal(
        step.status,
        violation ? "failed" : "passed",
        `${JSON.stringify(body)}: ${messages}`,
      );
      if (violation) assert.match(messages, violation, JSON.stringify(body));
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}
