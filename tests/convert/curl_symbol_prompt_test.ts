/**
 * `convert curl`: a shell theme's prompt drawn as a symbol nobody listed. A
 * security engine's bouncer API page prints every example after a `▶ `
 * prompt (`▶ curl -H "X-Api-Key: …" http://localhost:8080/v1/decisions\?ip=…`)
 * with the answer under it, and its set-up after the same prompt
 * (`▶ sudo cscli decisions add -i …`): read as shell, `▶` was a program, and
 * the whole page was refused ("The input holds no curl command"). A first
 * word made only of symbols outside ASCII (`▶`, `→`, `⚡`, `★`, `▸`) is no
 * program's name: before `curl` and what starts curl's words it is a prompt,
 * as `➜` and `❯` are. An ASCII word (`sh`, `-`), a quote, and a symbol
 * before a word that is not curl keep their readings.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** A page's section: the set-up after the prompt, then a query and its answer. */
const page = (prompt: string) =>
  [
    "## Query mode",
    "",
    "```bash",
    `${prompt} sudo tool decisions add -i 192.0.2.1`,
    "INFO[0000] Decision successfully added",
    "```",
    "",
    '```bash title="Query a single banned IP"',
    `${prompt} curl  -H "X-Api-Key: 0a1b2c3d4e5f60718293a4b5c6d7e8f9"  http://localhost:8080/v1/decisions\\?ip\\=192.0.2.1`,
    '[{"id":7,"scope":"Ip","type":"ban","value":"192.0.2.1"}]',
    "```",
    "",
  ].join("\n");

Deno.test("a symbol-only first word before curl is a prompt", () => {
  for (const prompt of ["▶", "→", "⚡", "★", "▸", "◆"]) {
    const { yaml, summary } = convertCurl(page(prompt));
    assert.equal(summary.steps, 1, `${prompt}\n${yaml}`);
    // bash takes the `\` off `\?` and `\=`: the query is sent as curl sends it.
    assert.match(yaml, /url: \$\{vars\.base_url\}\/v1\/decisions\?ip=192\.0\.2\.1\n/, yaml);
    // The key the page prints is the reader's own, asked for, never written.
    assert.ok(!yaml.includes("0a1b2c3d4e5f"), yaml);
  }
});

Deno.test("an ASCII word, or a symbol before another program, keeps its reading", () => {
  assert.throws(() => convertCurl("▶ sudo tool decisions list\n"), /no curl command/);
  // `sh curl …` runs a script named curl; `- curl` is a list item's prose.
  assert.throws(() => convertCurl("sh curl http://localhost:8080/x\n"));
});
