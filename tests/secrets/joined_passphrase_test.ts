/**
 * A secret of several words (a passphrase) that a server echoes with its spaces dropped: a
 * field that strips whitespace, a slug, a display that runs the words together, in any case
 * (`correcthorsebattery`, `CORRECTHORSEBATTERY`, `CorrectHorseBattery`). Only its camelCase and
 * PascalCase forms were masked, and none of an ordinary phrase's, so each showed in a failed
 * check, the response body and every report. The words run together are now masked as the
 * passphrase is, in any case and by any 16 of their characters, where that is no ordinary word
 * shorter than 16 characters (two words make one: `pass word` is `password`).
 */
import assert from "node:assert/strict";
import { noLeak, runFlowWithHar } from "./short_secret_artifacts.ts";
import { Redactor } from "../../lib/secrets/redactor.ts";
import { echoSteps, serveEchoes } from "./echo_server.ts";

const ENV = {
  PASSPHRASE: "correct horse battery",
  KEY_PHRASE: "violet Kq7x harbor 9zWtide",
};

/** The words joined with nothing, as sent, upper- and lower-cased, and PascalCase. */
const joined = (s: string) => {
  const words = s.split(" ");
  return {
    asSent: words.join(""),
    upper: words.join("").toUpperCase(),
    lower: words.join("").toLowerCase(),
    pascal: words.map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join(""),
  };
};

Deno.test("a passphrase echoed with its spaces dropped shows in no artifact", async () => {
  const srv = serveEchoes(joined, (q) => `slug=${Object.values(joined(q)).join("\n")}`);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-joined-" });
  try {
    const flow = `name: joined\nsteps:\n${
      Object.keys(ENV).map((e) => echoSteps(e, Object.keys(joined("a")), true)).join("")
    }`;
    const w = await runFlowWithHar(flow, dir, { ...ENV, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const leaks = Object.values(ENV).flatMap((v) => Object.values(joined(v)));
    noLeak({ ...w, texts: [...w.texts, w.har, w.html, w.junit] }, leaks);
    for (const k of Object.keys(joined("a"))) {
      assert.match(w.console, new RegExp(`\\$\\.json\\.${k}: expected "no", got "\\*\\*\\*"`));
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("two words that run together into an ordinary word are not masked so", () => {
  const r = new Redactor();
  r.add("pass word");
  r.add("some thing");
  for (const text of ["password: PASSWORD", "something"]) assert.equal(r.redact(text), text);
  assert.equal(r.redact("pw=pass word"), "pw=***");
});
