/**
 * Explaining YAML slips stays linear in the file: a file with a slip in each
 * of its thousands of steps (children of `request:` at the step's level, a
 * list item's "- " out of line, a key out of line, a tab) loads in a small
 * multiple of the time an ordinary file of the same size takes through the
 * same full parser. A ratio, so a busy machine slows both alike: reading
 * the whole file above each slip made it quadratic.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

const STEPS = 5000;

const steps = (step: (i: number) => string) =>
  "name: f\nsteps:\n" + Array.from({ length: STEPS }, (_, i) => step(i)).join("");

/** The best of three loads, in milliseconds: the least disturbed by other work. */
function cost(text: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    loadFlow(text, "f.yaml");
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

Deno.test("a slip in every step costs a small multiple of an ordinary file of its size", () => {
  // An anchor sends the ordinary file through the full parser, as every slip does.
  const ordinary = "x-a: &a 1\n" +
    steps((i) => `  - name: s${i}\n    request:\n      url: http://x.test/${i}\n`);
  const slips: Record<string, string> = {
    "request's keys at the step's level": steps((i) =>
      `  - name: s${i}\n    request:\n    url: http://x.test/${i}\n`
    ),
    "every other step's - one space short": steps((i) =>
      `${i % 2 ? " " : "  "}- name: s${i}\n    request:\n      url: http://x.test/${i}\n`
    ),
    "a key out of line in every step": steps((i) =>
      `  - name: s${i}\n    request:\n      url: http://x.test/${i}\n     method: GET\n`
    ),
    "a tab in every step": steps((i) =>
      `  - name: s${i}\n    request:\n\turl: http://x.test/${i}\n`
    ),
  };
  const base = cost(ordinary);
  for (const [name, text] of Object.entries(slips)) {
    assert.ok(text.length < ordinary.length * 1.4, name);
    const problems = loadFlow(text, "f.yaml").problems;
    assert.ok(problems.length >= 1 && problems.length <= 101, `${name}: ${problems.length}`);
    const ratio = cost(text) / base;
    // Measured at 1 to 2; reading every line above each slip made it hundreds.
    assert.ok(ratio < 8, `${name}: ${ratio.toFixed(1)} times an ordinary file`);
  }
});
