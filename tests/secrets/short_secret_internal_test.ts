/**
 * A step that fails in a way flowrun did not foresee says so in its own words around the error's
 * text: `internal error while running the step: Error: …`. A library user's `env` that throws
 * (a vault that refuses a lookup) does it wherever a flow reads the variable: a request's URL, a
 * check's expected value, a capture's `when`, a step's `if`; an `onSecret` that throws does it as
 * the step registers a token. Masked as one text, a short password `while`, `internal`, `error`,
 * `checking` or `capturing` made it `internal *** *** running the step`; each error's text is a
 * value (masked, the password it quotes too), flowrun's words never are, in the returned result,
 * every event, the log and the JSON, JUnit and HTML reports made from the result.
 */
import assert from "node:assert/strict";
import { leaves, sendsPasswords, startEchoing, unescapeXml } from "./short_secret_artifacts.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { combineReporters } from "../../lib/report/reporter.ts";
import { logReporter } from "../../lib/report/log.ts";
import { toJUnitXml } from "../../lib/report/junit.ts";
import { toHtml } from "../../lib/report/html.ts";
import { toJsonReport } from "../../lib/report/json.ts";
import type { StepResult } from "../../lib/model/result.ts";
import "../support/engines.ts";

const PASSWORDS = {
  PASSWORD_1: "while",
  PASSWORD_2: "error",
  PASSWORD_3: "running",
  PASSWORD_4: "step",
  API_TOKEN: "tok-5c4b3a29f8e7d6",
};

/** The step under test of each flow, after one that sends every password. */
const STEPS = [
  `  - name: url
    request: {url: "\${BASE_URL}/items?q=\${ENV.VAULT_URL}"}`,
  `  - name: check
    request: {url: "\${BASE_URL}/items?q=a"}
    assert:
      json:
        - {path: $.json.got, equals: "\${ENV.VAULT_CHECK}"}`,
  `  - name: capture
    request: {url: "\${BASE_URL}/items?q=a"}
    capture:
      got:
        path: $.json.got
        when: {value: "\${ENV.VAULT_CAPTURE}", equals: a}`,
  `  - name: guarded
    if: {value: "\${ENV.VAULT_IF}", equals: a}
    request: {url: "\${BASE_URL}/items"}`,
  `  - name: issued
    request: {url: "\${LOGIN_URL}/login", method: POST, body: {user: "a"}}`,
];

/**
 * A flow of its own for each step under test (a step's error skips the steps after it), after
 * one that only sends the passwords: the run then knows them before each flow's steps begin (a
 * short secret learnt within a flow masks flowrun's words of its messages too, see
 * short_secret_late_test.ts).
 */
const FLOWS = ["", ...STEPS].map((step, i) =>
  `name: internal ${i}
steps:
${sendsPasswords("find", 4)}
        x-token: "\${ENV.API_TOKEN}"
${step}
`
);

/** What a vault that refuses says: the variable, then a password and the token it quotes. */
function refusal(name: string): string {
  return `vault refused ${name} for ${PASSWORDS.PASSWORD_1} (${PASSWORDS.API_TOKEN}): error`;
}

const SAID = [
  "internal error while running the step: Error: vault refused VAULT_URL for *** (***): ***",
  "$.json.got: internal error while checking: Error: vault refused VAULT_CHECK for *** (***): ***.",
  'capture "got": internal error while capturing: Error: vault refused VAULT_CAPTURE for *** ' +
  "(***): ***.",
  "internal error while checking its condition ${ENV.VAULT_IF}: Error: vault refused VAULT_IF " +
  "for *** (***): ***.",
  "internal error while running the step: TypeError: onSecret cannot keep *** *** ***",
];

/** Every text the run's outputs hold: the result, each event, the log, JSON, JUnit and HTML. */
async function run(
  base: string,
  login: string,
): Promise<{ steps: StepResult[][]; texts: string[] }> {
  const env = (name: string) => {
    if (name.startsWith("VAULT_")) throw new Error(refusal(name));
    const urls: Record<string, string> = { BASE_URL: base, LOGIN_URL: login };
    return urls[name] ?? (PASSWORDS as Record<string, string>)[name];
  };
  const flows = FLOWS.map((text, i) => {
    const { flow, problems } = loadFlow(text, `internal${i}.yaml`, { env: () => "x" });
    assert.deepEqual(problems, []);
    return flow!;
  });
  const events: unknown[] = [];
  const lines: string[] = [];
  const reporter = combineReporters(logReporter({ sink: (l) => void lines.push(l) }), {
    onStepEnd: (_, step) => void events.push(step),
    onFlowEnd: (f) => void events.push(f),
  });
  const onSecret = (value: string) => {
    // The login's answer issues a session: a caller's hook that fails on it fails that step.
    if (value.startsWith("sess-")) {
      throw new TypeError(`onSecret cannot keep ${value} ${PASSWORDS.PASSWORD_1} running`);
    }
  };
  const result = await runFlows(flows, { jobs: 1, runId: "r", env, reporter, onSecret });
  const log = lines.join("").trim().split("\n").map((l) => JSON.parse(l));
  const html = /<script type="application\/json" id="data">(.*?)<\/script>/s.exec(toHtml(result));
  assert.ok(html);
  const texts = [
    ...leaves(result),
    ...leaves(events),
    ...log.flatMap((l) => leaves(l)),
    ...leaves(toJsonReport(result)),
    ...leaves(JSON.parse(html[1])),
    unescapeXml(toJUnitXml(result)),
  ];
  return { steps: result.flows.slice(1).map((f) => f.steps), texts };
}

Deno.test("an internal error keeps flowrun's words around the error's text, masked as a value", async () => {
  const srv = startEchoing();
  const login = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ session: "sess-7h3k9m2p4q8r1t6v" }),
  );
  try {
    const { steps, texts } = await run(srv.base, `http://127.0.0.1:${login.addr.port}`);
    const messages = steps.map(([, s]) =>
      s.message ?? s.assertions.find((a) => !a.passed)?.message
    );
    assert.deepEqual(messages, SAID, JSON.stringify(steps, null, 1));
    for (const said of SAID) {
      const words = said.replace(/\.$/, "");
      assert.ok(texts.filter((t) => t.includes(words)).length >= 5, words);
    }
    for (const text of texts) {
      assert.ok(!text.includes(PASSWORDS.API_TOKEN), text);
      assert.ok(
        !/internal \*\*\*|\*\*\* (while|running|checking|capturing)|the \*\*\*:/.test(text),
        text,
      );
    }
  } finally {
    await srv.close();
    await login.shutdown();
  }
});
