/**
 * env_values.ts answers what walking every key answered before it indexed
 * them: the keys ending with a line break and a value, those starting with
 * a step's prefix too, and those holding a variable, each in the order the
 * map is walked, on keys that mix underscores and line breaks (a value may
 * hold one) and are set again to another variable or removed.
 */
import assert from "node:assert/strict";
import { EnvValues } from "../../../lib/convert/correlate/env_values.ts";

/** A small generator with a seed: the same keys on every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

Deno.test("the keys found by end, start and variable are those a walk of the map finds", () => {
  const random = seeded(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const bases = ["LOGIN_PASSWORD", "SEND_CSRF", "SEND_2_CSRF", "SEND_TOKEN", "API_KEY", "SEND"];
  const values = ["c5f0", "pw", "a\nc5f0", "x_y", "c5f0\npw", ""];
  const names = ["SEND_CSRF", "SEND_2_CSRF", "LOGIN_PASSWORD", "API_KEY_2"];
  const env = new EnvValues();
  const walk = new Map<string, string>();
  for (let i = 0; i < 400; i++) {
    const key = `${pick(bases)}\n${pick(values)}`;
    if (random() < 0.15) {
      assert.equal(env.delete(key), walk.delete(key));
    } else {
      const name = pick(names);
      env.set(key, name);
      walk.set(key, name);
    }
    assert.deepEqual([...env], [...walk]);
    for (const value of values) {
      const ending = [...walk.keys()].filter((k) => k.endsWith(`\n${value}`));
      assert.deepEqual(env.endingWith(value), ending);
      for (const start of ["SEND_", "SEND_2_", "LOGIN_", "SEND", "SEND_CSRF\na_", "API_KEY_"]) {
        assert.deepEqual(
          env.startingEnding(start, value),
          ending.filter((k) => k.startsWith(start)),
          `${start} … ${value}`,
        );
      }
    }
    for (const name of names) {
      const holding = [...walk].filter(([, n]) => n === name).map(([k]) => k);
      assert.deepEqual(new Set(env.holding(name)), new Set(holding));
    }
  }
  env.clear();
  assert.deepEqual(env.endingWith("c5f0"), []);
});
