/**
 * A server that echoes a secret in another case (upper-cased, lower-cased, title-cased) or with
 * each `+` read as a space often quotes only part of it: an error message keeping 20 characters
 * of a token, a log line cut short with `…`. The run masked those forms only whole, so a piece of
 * 16 characters or a cut beginning showed in a failed check, the response body and every report.
 * Each such form is now masked as the secret as sent is: by its 16-character pieces and by its
 * beginning before a `…`.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten } from "./short_secret_artifacts.ts";
import { echoSteps, serveEchoes } from "./echo_server.ts";

const ENV = {
  API_TOKEN: "tok_9fK2mQ7rX4vB8nL3pW6sYd5cHj2e",
  CLIENT_SECRET: "Qm8+vZ3/kT9xRw2+pL7/nA8+fYt4Lq9=",
};

/** `s` title-cased (each letter after a non-letter capital, the others small). */
const title = (s: string) =>
  s.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, b: string, c: string) => b + c.toUpperCase());

/** Every form a server was seen to echo a value in. */
const forms = (s: string) => ({
  up: s.toUpperCase(),
  down: s.toLowerCase(),
  title: title(s),
  spaced: s.replaceAll("+", " "),
});

/** Each form's piece of 20 characters from its middle, and its first 12 characters cut short. */
const echoes = (s: string) =>
  Object.fromEntries(
    Object.entries(forms(s)).flatMap(([k, f]) => [
      [`${k}Piece`, `bad value ${f.slice(6, 26)} here`],
      [`${k}Cut`, `${f.slice(0, 12)}…`],
    ]),
  );

const steps = (env: string) => echoSteps(env, Object.keys(echoes("")));

Deno.test("a secret's other case or + read as a space, cut or in pieces, shows in no artifact", async () => {
  const srv = serveEchoes(echoes);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-echo-pieces-" });
  try {
    await Deno.writeTextFile(
      `${dir}/flow.yaml`,
      `name: pieces\nsteps:\n${steps("API_TOKEN")}${steps("CLIENT_SECRET")}`,
    );
    const w = await runWritten([`${dir}/flow.yaml`], dir, { ...ENV, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const leaks = Object.values(ENV).flatMap((v) =>
      Object.values(forms(v)).flatMap((f) => [f.slice(6, 26), f.slice(0, 12)])
    );
    noLeak(w, [...new Set(leaks)]);
    assert.match(w.console, /\$\.json\.upPiece: expected "no", got "bad value \*\*\* here"/);
    assert.match(w.console, /\$\.json\.titleCut: expected "no", got "\*\*\*…"/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
