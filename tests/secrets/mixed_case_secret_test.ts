/**
 * A server may echo a secret in a case mixed otherwise than upper, lower, title or camel case (a
 * display that alternates case, a case-insensitive store that keeps the case of the first write,
 * a client that flipped a shift key): `tOK_9fK2Mq7R`. The run masked only the cases it could
 * name, so such an echo showed in a failed check, the response body and every report. A secret of
 * 8 characters or more that is no ordinary word is now found whatever the case of its letters; a
 * short one (a PIN) and an ordinary word (a password `overview`, whose other cases are words of
 * their own) are not.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowWithHar } from "./short_secret_artifacts.ts";
import { Redactor } from "../../lib/secrets/redactor.ts";
import { echoSteps, serveEchoes } from "./echo_server.ts";

const ENV = {
  API_TOKEN: "tok_9fK2mQ7r",
  LONG_TOKEN: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  PASSPHRASE: "violet Kq7x harbor",
};

/** Every letter's case flipped, and every second letter upper-cased, the others lower. */
const mixed = (s: string) => ({
  flipped: [...s].map((c) => c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()).join(""),
  alternating: [...s].map((c, i) => i % 2 ? c.toUpperCase() : c.toLowerCase()).join(""),
});

Deno.test("a secret a server echoes in a mixed case shows in no artifact", async () => {
  const srv = serveEchoes(mixed, (q) => `said ${Object.values(mixed(q)).join(" and ")}`);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-mixed-" });
  try {
    const flow = `name: mixed\nsteps:\n${
      Object.keys(ENV).map((e) => echoSteps(e, ["flipped", "alternating"], true)).join("")
    }`;
    const w = await runFlowWithHar(flow, dir, { ...ENV, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const leaks = Object.values(ENV).flatMap((v) => Object.values(mixed(v)));
    noLeak({ ...w, texts: [...w.texts, w.har, w.html, w.junit] }, leaks);
    assert.match(w.console, /\$\.json\.flipped: expected "no", got "\*\*\*"/);
    assert.match(w.console, /\$\.json\.alternating: expected "no", got "\*\*\*"/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an ordinary word and a short secret are matched in their own case only", () => {
  const r = new Redactor();
  for (const s of ["overview", "admin-panel", "q7-wZ", "read only"]) r.add(s);
  for (const text of ["Overview: OVERVIEW", "Admin-Panel", "q7-Wz", "Read Only"]) {
    assert.equal(r.redact(text), text);
  }
  assert.equal(r.redact("overview admin-panel q7-wZ"), "*** *** ***");
});
