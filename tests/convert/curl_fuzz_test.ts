/**
 * `convert curl` on stored commands mutated as pasted commands are broken
 * (a quote left open, a trailing backslash, a line cut or repeated, a
 * header without a value, `--data @file` of a missing file, a number where
 * a word was, an option without its argument, a huge, unicode or control
 * character string, bytes that were not UTF-8): it either writes a flow
 * `flowrun validate` passes, or throws the usage error that names what is
 * wrong. Anything else (a TypeError, a RangeError) fails with the seed and
 * the mutations. Seeded and bounded: work is counted, never timed.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import type { CurlFiles } from "../../lib/convert/curl_files.ts";
import { root, runCli } from "../support/cli.ts";
import { convertSeeds } from "../support/fuzz_seeds.ts";
import { ODD_STRINGS } from "../support/mutate.ts";

const FOLDERS = ["tests/real/fixtures/curl_commands", "tests/fixtures/curl"];
const SEEDS = Number(Deno.env.get("FUZZ_SEEDS") ?? 150);

/** What a pasted command gains: options without or with odd arguments, files that are not there. */
const INSERTS = [
  " '",
  ' "',
  " \\",
  " $(",
  " `",
  " <<EOF",
  " -H 'X-Empty:'",
  " -H 'X-Bare'",
  " -H ':'",
  " -H",
  " --data @missing.json",
  " -K cfg.txt",
  " -d @-",
  " --json @x.json",
  " -H @headers.txt",
  " --data-urlencode name@f.txt",
  " -E client.pem",
  " --key client.key",
  " --data-binary @missing.bin",
  " -F 'f=@missing.png'",
  " -T missing.txt",
  " -K missing.cfg",
  " -X 123",
  " -X",
  " --max-time abc",
  " -u",
  " -u :",
  " --json",
  " --url",
  " -b 'a=1; b'",
  " --data-urlencode",
  " --next",
  " -:",
  " --compressed --globoff -g",
  " 'https://[::1'",
  " 'http://a.test/{a,b'",
  " 'http://a.test/[1-99999999]'",
  " --oauth2-bearer",
  " -H 'Authorization: Bearer'",
  " \ufffd\ufffd",
];

/** The commands of every stored file, one text each. */
async function texts(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const folder of FOLDERS) {
    for await (const entry of Deno.readDir(`${root}${folder}`)) {
      if (!entry.isFile || !/\.(sh|txt)$/.test(entry.name)) continue;
      const text = await Deno.readTextFile(`${root}${folder}/${entry.name}`);
      if (/curl/i.test(text)) out.push([`${folder}/${entry.name}`, text]);
    }
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** One mutation of the text; its description. */
function mutateOnce(text: string, next: () => number): [string, string] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const lines = text.split("\n");
  const line = Math.floor(next() * lines.length);
  const at = Math.floor(next() * (lines[line].length + 1));
  const put = (what: string) =>
    [
      ...lines.slice(0, line),
      lines[line].slice(0, at) + what + lines[line].slice(at),
      ...lines.slice(line + 1),
    ]
      .join("\n");
  switch (Math.floor(next() * 6)) {
    case 0: {
      const what = pick(INSERTS);
      return [put(what), `${JSON.stringify(what)} at line ${line + 1}, column ${at + 1}`];
    }
    case 1: {
      const what = pick(ODD_STRINGS);
      return [
        put(what),
        `${JSON.stringify(what.slice(0, 20))} at line ${line + 1}, column ${at + 1}`,
      ];
    }
    case 2:
      return [lines.filter((_, i) => i !== line).join("\n"), `line ${line + 1} removed`];
    case 3:
      return [
        [...lines.slice(0, line + 1), lines[line], ...lines.slice(line + 1)].join("\n"),
        `line ${line + 1} twice`,
      ];
    case 4: {
      const cut = Math.floor(next() * text.length);
      return [text.slice(0, cut), `cut at ${cut}`];
    }
    default:
      return [`${text.trimEnd()} \\`, "a trailing backslash"];
  }
}

/** No file the commands name exists: each is refused as missing. */
const NO_FILES: CurlFiles = { read: () => undefined, rebase: (p) => p, exists: () => false };

/** What a file the commands read may hold: JSON cut short, a config, nothing, a lot, NUL. */
const ODD_FILES = [
  '{"a":',
  "\ufffd\u0000",
  "url = http://a.test/x\nheader = X-A\n-d @missing",
  "",
  "x".repeat(100_000),
  "--data '",
  "a=1&b",
  '{"token": "abc"}',
];

/** Every file exists and holds one of {@linkcode ODD_FILES}, in turn. */
function oddFiles(next: () => number): CurlFiles {
  return {
    read: () => ODD_FILES[Math.floor(next() * ODD_FILES.length)],
    rebase: (p) => p,
    exists: () => true,
  };
}

Deno.test("curl fuzz: mutated commands convert into flows that load, or end with a usage error", async () => {
  const stored = await texts();
  const { dir, written, refused, failures, named } = await convertSeeds(SEEDS, (seed, next) => {
    const [file, original] = stored[Math.floor(next() * stored.length)];
    let text = original;
    const did: string[] = [];
    for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
      const [mutated, what] = mutateOnce(text, next);
      text = mutated;
      did.push(what);
    }
    const files = seed % 2 === 0 ? NO_FILES : oddFiles(next);
    return {
      name: `seed ${seed} (${file}: ${did.join("; ")})`,
      convert: () => [{ path: "flow.yaml", text: convertCurl(text, { files }).yaml }],
    };
  });
  try {
    assert.deepEqual(failures, [], failures.join("\n\n"));
    assert.ok(written > SEEDS / 3, `${written} written, ${refused} refused`);
    const check = await runCli(["validate", dir, "--no-env"]);
    const said = `${check.stdout}${check.stderr}`;
    // The files the commands send are the user's own, named where they are: none is here.
    const problems = [...said.matchAll(/\/(\d+)\/flow\.yaml:\d+:\d+ error\[([\w-]+)\]/g)]
      .filter((m) => m[2] !== "file-read");
    const which = [...new Set(problems.map((m) => named.get(Number(m[1]))))].join("\n");
    assert.deepEqual(problems.map((m) => m[0]), [], `${said}\n${which}`);
    assert.ok(check.code === 0 || said.includes("error[file-read]"), said);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
