/**
 * A server may echo a secret it received with its case changed (`toUpperCase` on a code, a hex
 * digest shown in capitals, an identifier folded to lower case): the run masked only the value as
 * sent, so `TOK_9FK2MQ7RX4VB8NL3PW6S` showed in a failed check, the response body and every
 * report. A random secret is as readable in either case, so its upper- and lower-case forms are
 * masked too; an ordinary word (a password `admin`) is not folded, its other cases are words.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten } from "./short_secret_artifacts.ts";

const ENV = { API_TOKEN: "tok_9fK2mQ7rX4vB8nL3pW6s", PASSWORD: "Zq7#x!" };

/** Answers `q` upper- and lower-cased. */
function startFolding(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const q = new URL(req.url).searchParams.get("q") ?? "";
    return Response.json({ up: q.toUpperCase(), down: q.toLowerCase() });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const step = (name: string, env: string) =>
  `  - name: ${name}
    request:
      url: "\${ENV.BASE_URL}/echo?q=\${ENV.${env}}"
    assert:
      json:
        - {path: $.json.up, equals: "no"}
        - {path: $.json.down, equals: "no"}
`;

Deno.test("a secret a server echoes in another case is masked in every artifact", async () => {
  const srv = startFolding();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-case-" });
  try {
    const flow = `name: folded\nsteps:\n${step("token", "API_TOKEN")}${
      step("password", "PASSWORD")
    }`;
    await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
    const w = await runWritten([`${dir}/flow.yaml`], dir, { ...ENV, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const token = ENV.API_TOKEN;
    noLeak(w, [token.toUpperCase(), token.toLowerCase(), "ZQ7#X!", "zq7#x!", "9FK2MQ7R"]);
    assert.match(w.console, /\$\.json\.up: expected "no", got "\*\*\*"/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
