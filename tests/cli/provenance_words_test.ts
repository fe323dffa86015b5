/**
 * Ordinary words as secrets (issue 53, item 15, the class): whatever word a password is, the
 * request text the flow wrote itself stays readable wherever the flow writes that word (a path
 * segment, a query key and value, a header name and value, a JSON key and value, a form field,
 * the middle of a sentence), in the console at -v, the JSON and JUnit reports and the curl line;
 * it is masked exactly where the runner substituted the secret, and wherever a response repeats
 * it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const WORDS = ["password", "admin", "test", "user", "secret", "token", "read-only", "Bearer"];

const envName = (word: string) => `SECRET_${word.replace(/\W/g, "_").toUpperCase()}`;

function flowOf(word: string, base: string): string {
  const env = `\${ENV.${envName(word)}}`;
  return `name: ${JSON.stringify(`w ${word}`)}
steps:
  - name: login
    request:
      method: POST
      url: ${base}/login
      body: {password: "${env}"}
  - name: form
    request:
      method: POST
      url: ${base}/form
      form: {${JSON.stringify(word)}: "7", kind: "${word}", other: "${env}"}
    assert: {status: 500}
  - name: use
    request:
      method: POST
      url: "${base}/${word}/items?${word}=7&kind=${word}&q=${env}"
      headers: {x-kind: "${word}", ${word}-id: "7", x-sent: "${env}"}
      body: {${JSON.stringify(word)}: 7, kind: "${word}", note: "a ${word} here", sent: "${env}"}
    assert: {status: 200}
`;
}

Deno.test("a corpus of ordinary words as secrets: the flow's own text readable, substitutions and echoes masked", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    if (new URL(req.url).pathname === "/login") {
      return Response.json({ echo: JSON.parse(text).password });
    }
    return Response.json({ failed: true }, { status: 500 });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-provenance-words-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const files = [];
    for (const [i, word] of WORDS.entries()) {
      await Deno.writeTextFile(`${dir}/f${i}.yaml`, flowOf(word, base));
      files.push(`${dir}/f${i}.yaml`);
    }
    const env = Object.fromEntries(WORDS.map((w) => [envName(w), w]));
    const cli = await runCli(
      ["run", ...files, "-v", "--report-json", `${dir}/r.json`, "--report-junit", `${dir}/r.xml`],
      { env },
    );
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const junit = await Deno.readTextFile(`${dir}/r.xml`);
    for (const [i, word] of WORDS.entries()) {
      const flow = report.flows.find((f: { file: string }) => f.file.endsWith(`f${i}.yaml`));
      const [login, form, use] = flow.steps;
      const at = `${word}: ${JSON.stringify(use.request)}`;
      // Where the runner substituted the secret, and where a response repeats it: masked.
      assert.equal(login.request.body, '{"password":"***"}', at);
      assert.match(login.response.body, /"echo":"\*\*\*"/, at);
      assert.equal(use.request.headers["x-sent"], "***", at);
      assert.match(use.request.body, /"sent":"\*\*\*"/, at);
      assert.match(form.request.body, /other=\*\*\*/, at);
      // What the flow wrote itself: readable, in the report, the curl line and the console.
      const url = `${base}/${word}/items?${word}=7&kind=${word}&q=***`;
      assert.equal(use.request.url, url, at);
      assert.equal(use.request.headers["x-kind"], word, at);
      assert.equal(use.request.headers[`${word}-id`], "7", at);
      const json = `{"${word}":7,"kind":"${word}","note":"a ${word} here","sent":"***"}`;
      assert.equal(use.request.body, json, at);
      assert.match(form.request.body, new RegExp(`${word}=7&kind=${word}&`), at);
      const curl =
        `curl -X POST '${base}/${word}/items?${word}=7&kind=${word}&q='"$${envName(word)}"` +
        ` -H 'x-kind: ${word}' -H '${word}-id: 7' -H 'x-sent: '"$${envName(word)}"`;
      assert.ok(use.request.curl.startsWith(curl), `${curl}\n${use.request.curl}`);
      assert.ok(
        junit.includes(
          curl.replaceAll("&", "&amp;").replaceAll("'", "&apos;").replaceAll('"', "&quot;"),
        ),
        word,
      );
      assert.ok(cli.stdout.includes(`POST ${url} → 500`), word);
      assert.ok(cli.stdout.includes(`> x-kind: ${word}\n`), word);
      // The console pretty-prints a longer body: spaced, one key a line.
      const printed = cli.stdout.replace(/\s+/g, "");
      assert.ok(printed.includes(json.replace(/\s+/g, "")), word);
      assert.match(cli.stdout, new RegExp(`"kind": ?"${word}"`), word);
    }
    // No substituted value went out anywhere: each word shows only where the flow wrote it.
    for (const word of WORDS) {
      assert.ok(!cli.stdout.includes(`"echo":"${word}"`), word);
      assert.ok(!cli.stdout.includes(`"sent":"${word}"`) && !junit.includes(`other=${word}`), word);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
