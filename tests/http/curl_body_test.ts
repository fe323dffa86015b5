/**
 * Every byte a body can hold reaches curl as it is: the `printf` a curl line
 * pipes in is run by `sh` (dash on Debian) and its output compared byte for
 * byte, for every byte value, every character a console shows escaped, and
 * a secret spliced in as `"$NAME"`.
 */
import assert from "node:assert/strict";
import { bodyArgs } from "../../lib/http/curl_body.ts";

const plain = { names: new Map<string, string>(), mask: (text: string) => text };

/** What `sh -c` writes for a line's printf (the part before `| curl`). */
async function printed(pipe: string, env: Record<string, string> = {}): Promise<Uint8Array> {
  const out = await new Deno.Command("sh", {
    args: ["-c", pipe],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    clearEnv: true,
    stdin: "null",
  }).output();
  assert.equal(out.code, 0, `${pipe}: ${new TextDecoder().decode(out.stderr)}`);
  return out.stdout;
}

Deno.test("a body of every byte value, not UTF-8, is printed back exactly by sh's printf", async () => {
  const bytes = new Uint8Array(512).map((_, i) => (i * 7) % 256);
  const args = bodyArgs([bytes], plain);
  assert.deepEqual(args.words, ["--data-binary", "@-"]);
  // deno-lint-ignore no-control-regex -- the line must hold no control character.
  assert.doesNotMatch(args.pipe!, /[\x00-\x1f\x7f-\x9f]/);
  assert.deepEqual([...await printed(args.pipe!)], [...bytes]);
});

Deno.test("text with each character a console escapes, and a leading '-', is printed back exactly", async () => {
  const unshown = [
    ..."\0\x01\t\n\r\x1b\x7f\x85\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069",
  ];
  for (const ch of unshown) {
    const text = `-${ch}'%s %% \\n \\ $HOME é 🔑${ch}`;
    const args = bodyArgs([text], plain);
    assert.ok(args.pipe, JSON.stringify(text));
    assert.equal(new TextDecoder().decode(await printed(args.pipe)), text, args.pipe);
  }
});

Deno.test("one line of text stays a --data-raw word; an empty body is an empty word", () => {
  assert.deepEqual(bodyArgs(['{"a":"é 🔑 it\'s"}'], plain), {
    words: ["--data-raw", `'{"a":"é 🔑 it'\\''s"}'`],
  });
  assert.deepEqual(bodyArgs([""], plain), { words: ["--data-raw", "''"] });
  assert.deepEqual(bodyArgs([new TextEncoder().encode("ok")], plain), {
    words: ["--data-raw", "'ok'"],
  });
});

Deno.test("a secret in a printed body is printf's argument, so its % and \\ stay as they are", async () => {
  const secret = "t0k%s\\n%'\n$x";
  const secrets = { names: new Map([[secret, "API_TOKEN"]]), mask: (text: string) => text };
  const text = `a\n${secret} and ${secret}.`;
  const args = bodyArgs([text], secrets);
  assert.ok(!args.pipe!.includes(secret), args.pipe);
  assert.equal(args.pipe, `printf 'a\\n%s and %s.' "$API_TOKEN" "$API_TOKEN"`);
  const got = await printed(args.pipe!, { API_TOKEN: secret });
  assert.equal(new TextDecoder().decode(got), text);
});
