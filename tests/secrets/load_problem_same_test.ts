/**
 * A flow file's problem is told in every artifact: the JSON report's `problems`, and the step of
 * its file in the JSON, JUnit, HTML reports and the log (`<file>:<line>:<column> <message> Hint:
 * <hint>`). The problem's message and hint are masked where they are made (what they quote of the
 * file), then kept as flowrun's words in `problems`; the step's message was masked again as one
 * value, so a short secret equal to one of flowrun's words there (a PIN `5:12` where the problem
 * stands at line 5, column 12) masked the position in the JUnit, the log and the HTML report, not
 * in `problems`. Every artifact now says the same thing, only the secrets masked.
 */
import assert from "node:assert/strict";
import { runWritten, unescapeXml } from "./short_secret_artifacts.ts";

const ENV = { PASSWORD: "Zq7#x!", POSITION_PIN: "5:12", WORD_PASSWORD: "Hint" };

/** Reads every secret, so the run knows them before the other file's problem is told. */
const READS = `name: reads
steps:
  - name: s
    request:
      url: "http://127.0.0.1:9/x?p=\${ENV.PASSWORD}&n=\${ENV.POSITION_PIN}&w=\${ENV.WORD_PASSWORD}"
`;

/** A quote never closed at line 5, column 12, on a line that writes the password in clear. */
const SLIP = `name: quote
steps:
  - name: s
    request:
      url: "http://127.0.0.1:9/x?k=Zq7#x!&v=1
`;

Deno.test("a load problem says the same words in every artifact, only secrets masked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-load-problem-same-" });
  try {
    await Deno.writeTextFile(`${dir}/reads.yaml`, READS);
    await Deno.writeTextFile(`${dir}/quote.yaml`, SLIP);
    const w = await runWritten([`${dir}/reads.yaml`, `${dir}/quote.yaml`], dir, ENV);
    assert.equal(w.code, 2, w.console);
    const report = w.report as unknown as {
      problems: { file: string; line: number; column: number; message: string; hint: string }[];
    };
    const [p] = report.problems;
    assert.deepEqual([p.line, p.column], [5, 12]);
    assert.ok(p.hint.includes("k=***&v=1"), p.hint);
    const said = `${p.file}:5:12 ${p.message} Hint: ${p.hint}`;
    const html = /<script type="application\/json" id="data">(.*?)<\/script>/s.exec(w.html)!;
    const junit = /<error type="invalid" message="([^"]*)"/.exec(w.junit)!;
    const logged = w.log.find((l) => l.event === "flow_end" && l.file === p.file)!;
    const told = {
      json: w.report.flows.find((f) => f.name === "quote.yaml")!.steps[0].message,
      junit: unescapeXml(junit[1]),
      log: logged.message,
      // The HTML report's data: a flow is a list, its steps the 7th item, a step's message `m`.
      html: (JSON.parse(html[1]).flows as [string, string, ...unknown[]][])
        .filter((f) => f[0] === p.file).map((f) => (f[6] as { m: string }[])[0].m)[0],
    };
    for (const [artifact, text] of Object.entries(told)) assert.equal(text, said, artifact);
    for (const text of w.texts) assert.ok(!text.includes("Zq7#x!"), text.slice(0, 400));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
