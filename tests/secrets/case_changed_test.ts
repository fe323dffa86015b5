/**
 * A server may echo a secret it received with its case changed (`toUpperCase` on a code, a hex
 * digest shown in capitals, an identifier folded to lower case, a name title-cased for display,
 * a hyphenated key turned into a camelCase field): the run masked only the value as sent, so
 * `TOK_9FK2MQ7RX4VB8NL3PW6S` showed in a failed check, the response body and every report. A
 * random secret is as readable in any of those cases, so each is masked too; an ordinary word (a
 * password `admin`) is not folded, its other cases are words.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten } from "./short_secret_artifacts.ts";

const ENV = {
  API_TOKEN: "tok_9fK2mQ7rX4vB8nL3pW6s",
  PASSWORD: "Zq7#x!",
  KEY_PHRASE: "blue-k7q-zebra9-x4",
  SHORT_PIN: "q7-wz",
};

/** `s` with its first letter capital, the rest as it is. */
const first = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Each letter after a character that is no letter capital, the others small (Python's title). */
const title = (s: string) =>
  s.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, b: string, c: string) => b + c.toUpperCase());

/** Words joined at `-`, `_` and spaces, each but the first capitalised: camelCase. */
const camel = (s: string) => s.replace(/[-_ ]+(.)/g, (_, c: string) => c.toUpperCase());

/** Every case a server was seen to echo a value in. */
const cases = (s: string) => ({
  up: s.toUpperCase(),
  down: s.toLowerCase(),
  first: first(s),
  capitalized: first(s.toLowerCase()),
  title: title(s),
  camel: camel(s),
  pascal: first(camel(s)),
  camelDown: camel(s.toLowerCase()),
});

/** Answers `q` in every case of {@linkcode cases}. */
function startFolding(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const q = new URL(req.url).searchParams.get("q") ?? "";
    return Response.json(cases(q));
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const step = (name: string, env: string) =>
  `  - name: ${name}
    request:
      url: "\${ENV.BASE_URL}/echo?q=\${ENV.${env}}"
    assert:
      json:
${Object.keys(cases("")).map((k) => `        - {path: $.json.${k}, equals: "no"}`).join("\n")}
`;

Deno.test("a secret a server echoes in another case is masked in every artifact", async () => {
  const srv = startFolding();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-case-" });
  try {
    const flow = `name: folded\nsteps:\n${
      Object.keys(ENV).map((env) => step(env.toLowerCase(), env)).join("")
    }`;
    await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
    const w = await runWritten([`${dir}/flow.yaml`], dir, { ...ENV, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const leaks = Object.values(ENV).flatMap((v) => Object.values(cases(v)));
    noLeak(w, [...new Set(leaks), "9FK2MQ7R", "blueK7q", "BlueK7q"]);
    for (const k of Object.keys(cases(""))) {
      assert.match(w.console, new RegExp(`\\$\\.json\\.${k}: expected "no", got "\\*\\*\\*"`));
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an ordinary word's other cases are words of their own, not masked", async () => {
  const srv = startFolding();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-case-" });
  try {
    const flow = `name: word\nsteps:\n${step("word", "PASSWORD")}`;
    await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
    const w = await runWritten([`${dir}/flow.yaml`], dir, {
      PASSWORD: "admin-panel",
      BASE_URL: srv.base,
    });
    assert.equal(w.code, 1, w.console);
    assert.match(w.console, /\$\.json\.title: expected "no", got "Admin-Panel"/);
    assert.match(w.console, /\$\.json\.camel: expected "no", got "adminPanel"/);
    assert.match(w.console, /\$\.json\.down: expected "no", got "\*\*\*"/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
