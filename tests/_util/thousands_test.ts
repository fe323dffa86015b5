import assert from "node:assert/strict";
import { thousands } from "../../lib/_util/thousands.ts";

Deno.test("thousands writes whole numbers as toLocaleString('en-US') does", () => {
  for (const n of [0, 7, 999, 1000, 1001, 65_536, 100_000, 1_000_000, 123_456_789, -1, -4096]) {
    assert.equal(thousands(n), n.toLocaleString("en-US"), String(n));
  }
  assert.equal(thousands(Number.MAX_SAFE_INTEGER), "9,007,199,254,740,991");
});

Deno.test("no code of lib/ or cli/ calls the locale functions, whose first call costs start-up", async () => {
  // The first toLocaleString, localeCompare or Intl call in a process loads ICU's locale data
  // (about 16 ms); lib/check/xpath.ts made a message constant with one when imported, which every
  // run paid. localeCompare also sorts by the machine's locale, so output would differ by machine.
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".ts")) {
        (await Deno.readTextFile(path)).split("\n").forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, "");
          if (/^\s*\*/.test(code)) return; // JSDoc
          if (/\.toLocale\w*String\(|\.localeCompare\(|\bIntl\./.test(code)) {
            found.push(`${path}:${i + 1}`);
          }
        });
      }
    }
  };
  const root = new URL("../..", import.meta.url).pathname;
  await walk(`${root}lib`);
  await walk(`${root}cli`);
  assert.deepEqual(found, []);
});
