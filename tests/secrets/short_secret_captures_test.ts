/**
 * Why a capture found nothing is flowrun's words around values:
 * `capture "id": $.json.gots matched nothing (did you mean "$.json.got"?)`,
 * `capture "n": $.json.got gave no number: "12ab" is not a number`,
 * `capture "loc": the response has no "location" header`. With short secrets that are those very
 * words (passwords `capture`, `nothing`, `number`, `header`, `cookie`, `body`, `mean`), each value a reason quotes
 * (the value of the wrong type, a key of the response) is masked where the reason is made and its
 * words are not, in every artifact; a secret of 8 characters or more is masked anywhere.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, sendsPasswords } from "./short_secret_artifacts.ts";

/** Sends every password; captures a key the answer lacks, a password as a number, absent headers. */
const CAPTURES = `name: captures
steps:
${sendsPasswords("missing", 7)}
    capture:
      id: $.json.gots
      n: {path: $.json.got, as: number}
      loc: {header: location}
      sid: {cookie: sid}
      r: {regex: 'id=([0-9]+)'}
  - name: token
    always: true
    request: {url: "\${BASE_URL}/items?q=\${ENV.API_TOKEN}"}
    capture:
      t: {path: $.json.got, as: number}
`;

const ENV = {
  PASSWORD_1: "number",
  PASSWORD_2: "capture",
  PASSWORD_3: "nothing",
  PASSWORD_4: "header",
  PASSWORD_6: "cookie",
  PASSWORD_7: "body",
  PASSWORD_5: "mean",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("a capture's reason masks the values it quotes, never its words", async () => {
  const w = await runFlowText(CAPTURES, ENV);
  assert.equal(w.code, 1, w.console);
  const [missing, token] = w.report.flows[0].steps as {
    message?: string;
    capture_failures?: { name: string; message: string }[];
  }[];
  const reasons = [
    '$.json.gots matched nothing (did you mean "$.json.got"?)',
    '$.json.got gave no number: "***" is not a number',
    'the response has no "location" header',
    'the response sets no cookie "sid"',
    "/id=([0-9]+)/ matched nothing in the body",
  ];
  assert.deepEqual(missing.capture_failures?.map((c) => c.message), reasons);
  const names = ["id", "n", "loc", "sid", "r"];
  const said = `${reasons.map((r, i) => `capture "${names[i]}": ${r}`).join("; ")}.`;
  assert.equal(missing.message, said);
  assert.equal(token.message, 'capture "t": $.json.got gave no number: "***" is not a number.');

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  for (const text of reasons) {
    assert.ok(w.console.includes(text), `console: ${text}\n${w.console}`);
    assert.ok(w.texts.filter((t) => t.includes(text)).length >= 4, text);
  }
  const logged = w.log.filter((l) => l.event === "step_end").map((l) => l.message);
  assert.ok(logged.includes(said), JSON.stringify(logged));

  // No value a password or the token stood in is shown, in any artifact.
  const leaks = [
    "q=number",
    '"number" is not',
    "x-a: capture",
    '"x-a":"capture"',
    '"x-b": "nothing"',
    "tok-9f8e7d6c5b",
  ];
  noLeak(
    w,
    leaks,
    /\*\*\* "(id|n|loc|sid|t)"|matched \*\*\*|no \*\*\*|did you \*\*\*|\*\*\* "(location|sid)"|the \*\*\*$/,
  );
});
