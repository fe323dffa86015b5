/**
 * A request's error and the reason a step was skipped are flowrun's words around values:
 * `Request failed: connection refused.`, `No complete response within 300 ms.`,
 * `"nohttp/x" is not an absolute http or https URL.`, `Skipped because step "refused" had an
 * error.` With short secrets that are those very words (passwords `refused`, `within`, `step`,
 * `error`, `https`), each value a message quotes (a URL) is masked where the message is made and
 * its words are not, in every artifact; the values the requests sent are masked everywhere, and a
 * secret of 8 characters or more anywhere.
 */
import assert from "node:assert/strict";
import { runTexts } from "./short_secret_artifacts.ts";

/** A port nothing listens on: one the system gave a listener, closed again. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A server that answers /slow only when it closes. */
function startSlow(): { base: string; close: () => Promise<void> } {
  const { promise: closing, resolve } = Promise.withResolvers<void>();
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await closing;
    return new Response("late");
  });
  return {
    base: `http://127.0.0.1:${srv.addr.port}`,
    close: async () => {
      resolve();
      await srv.shutdown();
    },
  };
}

/** A refused connection, then a step it skips; a bad URL quoting a password and a token. */
const REFUSED = `name: refused
steps:
  - name: refused
    request:
      url: "\${CLOSED}/x?q=\${ENV.PASSWORD_1}"
      headers: {x-a: "\${ENV.PASSWORD_4}"}
  - name: after
    request: {url: "\${CLOSED}/y"}
  - name: bad
    always: true
    request: {url: "nohttp/\${ENV.PASSWORD_5}/\${ENV.API_TOKEN}?k=\${ENV.PASSWORD_6}"}
`;

/** A request that gets no answer in time, its URL holding a password. */
const SLOW = `name: slow
steps:
  - name: slow
    options: {timeout: 300ms}
    request: {url: "\${SLOW}/slow?q=\${ENV.PASSWORD_2}&s=\${ENV.PASSWORD_3}"}
`;

const ENV = {
  PASSWORD_1: "refused",
  PASSWORD_2: "within",
  PASSWORD_3: "step",
  PASSWORD_4: "error",
  PASSWORD_5: "https",
  // Quoted percent-encoded in the URL: masked in that form too.
  PASSWORD_6: "o ké",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("a request's error and a skip reason mask the values they quote, never their words", async () => {
  const slow = startSlow();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-stops-" });
  try {
    const env = { CLOSED: `http://127.0.0.1:${closedPort()}`, SLOW: slow.base, ...ENV };
    const w = await runTexts({ "refused.yaml": REFUSED, "slow.yaml": SLOW }, dir, env);
    assert.equal(w.code, 1, w.console);
    const [refused, late] = w.report.flows;
    const said = [
      "Request failed: connection refused.",
      'Skipped because step "refused" had an error.',
      '"nohttp/***/***?k=***" is not an absolute http or https URL: it has no scheme; give the value it starts with one, e.g. "http://nohttp".',
      "No complete response within 300 ms.",
    ];
    assert.deepEqual([...refused.steps, ...late.steps].map((s) => s.message), said);

    // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
    for (const text of said) {
      const words = text.replace(/\.$/, "");
      // The console writes a skip reason after the step's name, in lower case.
      assert.ok(w.console.toLowerCase().includes(words.toLowerCase()), `console: ${words}`);
      assert.ok(w.texts.filter((t) => t.includes(words)).length >= 4, words);
    }
    const logged = w.log.filter((l) => l.event === "step_end").map((l) => l.message);
    assert.ok(logged.includes(said[0]) && logged.includes(said[1]), JSON.stringify(logged));

    // No value a password or the token stood in is shown, in any artifact.
    const leaks = [
      "q=refused",
      "q=within",
      "s=step",
      "x-a: error",
      '"x-a":"error"',
      '"x-a": "error"',
      "nohttp/https",
      "o%20k%C3%A9",
      "o ké",
      "tok-9f8e7d6c5b",
    ];
    for (const text of w.texts) {
      for (const leak of leaks) assert.ok(!text.includes(leak), `${leak} in ${text.slice(0, 400)}`);
      assert.ok(
        !/connection \*\*\*|\*\*\* (had|300)|because \*\*\*|an \*\*\*\b|or \*\*\* URL/.test(text),
        text,
      );
    }
  } finally {
    await slow.close();
    await Deno.remove(dir, { recursive: true });
  }
});
